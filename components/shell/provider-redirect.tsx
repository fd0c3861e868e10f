"use client";
import { signIn } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui";

/** Starts the sign-in with an OAuth provider at once; the button is there if the redirect does not happen. */
export function ProviderRedirect({ providerId, label, callbackUrl }: { providerId: string; label: string; callbackUrl: string }) {
  const started = useRef(false);
  const [busy, setBusy] = useState(true);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    signIn(providerId, { callbackUrl }).catch(() => setBusy(false));
  }, [providerId, callbackUrl]);
  return (
    <div className="stack">
      <p className="muted">{busy ? `Taking you to ${label}…` : `Could not reach ${label}.`}</p>
      <Button variant="primary" onClick={() => void signIn(providerId, { callbackUrl })}>
        Continue with {label}
      </Button>
    </div>
  );
}
