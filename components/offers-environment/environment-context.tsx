"use client";
// The environment of the offers pages, for the components under them: read once from the URL by
// OffersEnvironmentProvider, used by the API factories, the query keys and every link between the pages.
import { createContext, useContext, useMemo } from "react";
import { pageHref, type Environment } from "./environment";

// Outside a provider (a component rendered on its own) the pages' default holds: live.
export const EnvironmentContext = createContext<Environment>("live");

export interface OffersEnvironment {
  environment: Environment;
  /** A page address in this environment: links between the offers pages keep it. */
  href: (path: string) => string;
}

export function useOffersEnvironment(): OffersEnvironment {
  const environment = useContext(EnvironmentContext);
  return useMemo(() => ({ environment, href: (path: string) => pageHref(path, environment) }), [environment]);
}
