/**
 * Owner pages: what a user or a group owns in the catalog (spec.owners names a user, and optionally a group whose
 * members own it too), the open merge requests on those components (their owners decide them), and the app
 * orders waiting for a lead when the owner is one.
 *
 * The portal knows a user's groups only from their own sign-in: on the caller's own page the components of their
 * groups are listed too (and their roles through groups count); on another user's page only what names that user.
 * An owner no record names (and not the caller) is not found.
 */
import "server-only";
import type { CatalogEntry } from "../catalog/catalog";
import { listOrders } from "./app-orders/orders";
import { OWNED_COMPONENTS_MAX, type OwnedComponent, type OwnerAnswer } from "./contracts/owners";
import { PortalError } from "./errors";
import { listReviews, type ReviewDeps, type ReviewUser } from "./gitops/reviews";
import { resolveRoles, type PortalConfig } from "./portal-yaml";
import { hasRole } from "./roles";

export interface Ownership {
  /** Some record names the owner as a user, or as a group. */
  asUser: boolean;
  asGroup: boolean;
  /** Every component the owner holds, in name order. */
  components: OwnedComponent[];
}

/**
 * What `owner` owns among `entries`: records naming it as a user (direct), as a group (direct, for a group), or
 * naming one of `groups` (the user's groups, when known). Names compare exactly, as the ownership rule does.
 */
export function ownershipOf(entries: Iterable<Pick<CatalogEntry, "name" | "component">>, owner: string, groups: readonly string[] = []): Ownership {
  let asUser = false;
  let asGroup = false;
  const components: OwnedComponent[] = [];
  const memberOf = new Set(groups);
  for (const { name, component } of entries) {
    let direct = false;
    const viaGroups: string[] = [];
    for (const o of component.spec.owners) {
      if (o.user === owner) {
        asUser = direct = true;
      }
      if (o.group === undefined) continue;
      if (o.group === owner) asGroup = direct = true;
      else if (memberOf.has(o.group) && !viaGroups.includes(o.group)) viaGroups.push(o.group);
    }
    if (!direct && !viaGroups.length) continue;
    const { metadata, spec } = component;
    components.push({ name, displayName: metadata.displayName, kind: spec.kind, lifecycle: spec.lifecycle ?? null, direct, viaGroups: viaGroups.sort() });
  }
  components.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { asUser, asGroup, components };
}

export interface OwnerDeps extends ReviewDeps {
  /** The portal config (roles by user name and by group). */
  portalConfig: () => PortalConfig;
}

/** The owner's page for `viewer`; not-found when no record names the owner and it is not the viewer. */
export async function ownerView(deps: OwnerDeps, viewer: ReviewUser, owner: string): Promise<OwnerAnswer> {
  const self = viewer.id === owner;
  const groups = self ? viewer.groups : null;
  const owned = ownershipOf(deps.catalog.entries(), owner, groups ?? []);
  if (!owned.asUser && !owned.asGroup && !owned.components.length && !self) {
    throw new PortalError("not-found", `no owner named "${owner}": no component of the catalog names it as a user or a group`);
  }
  const names = new Set(owned.components.map((c) => c.name));
  // A name both a user and a group holds: the leads' roles of either count.
  const roles = resolveRoles(deps.portalConfig(), owned.asUser || self ? owner : "", [...(groups ?? []), ...(owned.asGroup ? [owner] : [])]);
  const mayDecide = hasRole({ roles }, "lead");
  const [reviews, pending] = await Promise.all([
    names.size ? listReviews(deps, viewer, { state: "opened" }) : Promise.resolve([]),
    listOrders(deps, { status: "pending" }),
  ]);
  return {
    owner,
    asUser: owned.asUser || self,
    asGroup: owned.asGroup,
    groups,
    components: { items: owned.components.slice(0, OWNED_COMPONENTS_MAX), total: owned.components.length },
    reviews: reviews.filter((r) => r.scope.kind === "component" && names.has(r.scope.component)),
    orders: {
      mayDecide,
      toDecide: mayDecide ? pending.filter((o) => o.requester !== owner) : [],
      requested: pending.filter((o) => o.requester === owner),
    },
  };
}
