"use client";
import { Link } from "@/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui";
import type { PortalUser } from "@/lib/portal/roles";
import { describeApiError } from "@/components/http/api-client";
import { signOut } from "./sign-out";

/** The signed-in user's name and roles, their API tokens, and sign-out. */
export function UserMenu({ user }: { user: PortalUser }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    function onPointerDown(event: PointerEvent) {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape" && ref.current?.open) ref.current.open = false;
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  return (
    <details className="shell-user" ref={ref} data-testid="user-menu">
      <summary aria-label={`User menu of ${user.name}`}>
        <span className="shell-avatar" aria-hidden="true">
          {user.name.slice(0, 1)}
        </span>
        <span data-testid="user-name">{user.name}</span>
      </summary>
      <div className="shell-user__menu">
        <div className="shell-user__section">
          <div>
            <strong>{user.name}</strong>
            {user.name !== user.id ? <span className="muted"> @{user.id}</span> : null}
          </div>
          {user.email ? <div className="muted">{user.email}</div> : null}
          <div className="shell-roles" data-testid="user-roles" aria-label="Roles">
            {user.roles.map((role) => (
              <Badge key={role} tone={role === "admin" ? "danger" : role === "engineer" ? "neutral" : "accent"}>
                {role}
              </Badge>
            ))}
          </div>
        </div>
        <Link className="shell-user__item" href="/tokens" onClick={() => ref.current?.removeAttribute("open")}>
          API tokens
        </Link>
        <button
          type="button"
          className="shell-user__item"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await signOut();
            } catch (e) {
              setError(describeApiError(e));
              setBusy(false);
            }
          }}
        >
          {busy ? "Signing out…" : "Sign out"}
        </button>
        {error ? (
          <div className="ui-field__error" role="alert">
            {error}
          </div>
        ) : null}
      </div>
    </details>
  );
}
