"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FormDialog } from "@/components/ui";
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
    <FormDialog
      open={token !== null}
      onClose={close}
      title="Revoke token?"
      submitLabel="Revoke"
      pendingLabel="Revoking…"
      submitVariant="danger"
      pending={revoke.isPending}
      error={revoke.isError ? describeApiError(revoke.error) : null}
      onSubmit={() => token && revoke.mutateAsync(token.id)}
    >
      <p>
        Scripts using <strong>{token?.name}</strong> will stop working at once.
      </p>
    </FormDialog>
  );
}
