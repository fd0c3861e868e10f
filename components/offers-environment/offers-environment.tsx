"use client";
// Holds the offers pages (support, live ops, webhooks) in the environment their URL names, with the
// switch on top of every page when `withSwitch`.
import { Fragment, type ReactNode } from "react";
import { useSearchParams } from "next/navigation";
import { ENV_PARAM, environmentFromParam } from "./environment";
import { EnvironmentContext } from "./environment-context";
import { EnvironmentSwitch } from "./environment-switch";

export function OffersEnvironmentProvider({ withSwitch = false, children }: { withSwitch?: boolean; children: ReactNode }) {
  const environment = environmentFromParam(useSearchParams()?.get(ENV_PARAM));
  return (
    <EnvironmentContext value={environment}>
      {withSwitch ? <EnvironmentSwitch /> : null}
      {/* The page mounts anew in the other environment: no state (a form's draft, a watch stream, a picked
          player, a mutation under way) carries over from one environment to the other. */}
      <Fragment key={environment}>{children}</Fragment>
    </EnvironmentContext>
  );
}
