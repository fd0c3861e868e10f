// The contract of /api/owners/{owner}: what an owner's page shows, read by the route, the OpenAPI document and the
// page. zod only: browser code imports it.
import { z } from "zod";
import { COMPONENT_KINDS, LIFECYCLES } from "@/lib/catalog/schema";
import { orderSchema } from "@/lib/portal/app-orders/model";
import { Review } from "./reviews";

/** Longest owner name taken: a GitLab username or a group's full path (GitLab allows 255 characters). */
export const OWNER_NAME_MAX = 255;

/** {owner}: a user name or a group's full path; a group's slashes are sent encoded (%2F) in the API path. */
export const OwnerParams = z.object({
  owner: z
    .string()
    .trim()
    .min(1, "an owner is a user name or a group path")
    .max(OWNER_NAME_MAX, `an owner name is at most ${OWNER_NAME_MAX} characters`)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "an owner name has no control characters"),
});

/** Longest list of owned components an answer carries; `components.total` counts them all. */
export const OWNED_COMPONENTS_MAX = 500;

export const OwnedComponent = z.object({
  name: z.string(),
  displayName: z.string(),
  kind: z.enum(COMPONENT_KINDS),
  lifecycle: z.enum(LIFECYCLES).nullable(),
  direct: z.boolean().describe("The owner is named as a user in spec.owners (for a group: the group is named)"),
  viaGroups: z.array(z.string()).describe("Groups of the user that own it (known on the caller's own page only)"),
});
export type OwnedComponent = z.infer<typeof OwnedComponent>;

/** GET /api/owners/{owner} */
export const OwnerAnswer = z.object({
  owner: z.string(),
  asUser: z.boolean().describe("Some record names it as a user in spec.owners, or it is the caller"),
  asGroup: z.boolean().describe("Some record names it as a group in spec.owners"),
  groups: z
    .array(z.string())
    .nullable()
    .describe("The user's groups, on the caller's own page; null where the portal does not know them (another user, or a group)"),
  components: z.object({
    items: z.array(OwnedComponent).describe(`In name order, at most ${OWNED_COMPONENTS_MAX}`),
    total: z.number().int(),
  }),
  reviews: z.array(Review).describe("Open merge requests on its components: its owners decide them (can: what the caller may do)"),
  orders: z.object({
    mayDecide: z.boolean().describe("The owner holds the lead role (from the portal config: its user name or group; a user's groups on their own page)"),
    toDecide: z.array(orderSchema).describe("Pending app orders the owner may approve or reject (not their own); empty unless mayDecide"),
    requested: z.array(orderSchema).describe("The user's own app orders waiting for a lead"),
  }),
});
export type OwnerAnswer = z.infer<typeof OwnerAnswer>;
