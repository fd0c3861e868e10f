"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Dialog } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { revokeToken, tokenKeys, type TokenSummary } from "./api";

/** Asks before revoking a token: scripts using it stop working at once. */
export function RevokeTokenDialog({ token, onClose }: { token: TokenSummary | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: revokeToken,
    onSuccess: () => {
      onClose();
      void queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
  });
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <Dialog
      open={token !== null}
      onClose={close}
      title="Revoke token?"
      actions={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="danger" disabled={revoke.isPending} onClick={() => token && revoke.mutate(token.id)}>
            {revoke.isPending ? "Revoking…" : "Revoke"}
          </Button>
        </>
      }
    >
      <p>
        Scripts using <strong>{token?.name}</strong> will stop working at once.
      </p>
      {revoke.isError ? <Alert tone="error">{describeApiError(revoke.error)}</Alert> : null}
    </Dialog>
  );
}
