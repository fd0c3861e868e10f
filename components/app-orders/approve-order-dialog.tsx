"use client";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { FormDialog } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import type { AppOrder } from "@/lib/portal/app-orders/model";
import { approveOrder } from "./api";

/** Asks a lead before approving an order: its merge request is merged and the component joins the catalog. */
export function ApproveOrderDialog({ order, onClose, onApproved }: { order: AppOrder | null; onClose: () => void; onApproved: (answer: { order: AppOrder; inCatalog: boolean }) => void }) {
  const approve = useSingleFlightMutation({ mutationFn: approveOrder, onSuccess: onApproved });
  const close = () => {
    approve.reset();
    onClose();
  };
  return (
    <FormDialog
      open={order !== null}
      onClose={close}
      title={`Approve ${order?.name ?? ""}?`}
      submitLabel="Approve and merge"
      pendingLabel="Merging…"
      pending={approve.isPending}
      error={approve.isError ? describeApiError(approve.error) : null}
      onSubmit={() => order && approve.mutateAsync(order.id)}
    >
      <p>
        This merges merge request !{order?.mergeRequest?.iid} in the config repository: <strong>{order?.name}</strong> joins the catalog and its resource requests are
        provisioned.
      </p>
    </FormDialog>
  );
}
