/**
 * Who may commit to a component and decide its merge requests: operators (admin included) and the
 * component's owners (an owner entry names a user, or a group the user belongs to). Pure rules.
 */
import type { Catalog } from "../catalog/catalog";
import type { Component } from "../catalog/schema";
import { componentNotFound } from "./errors";
import { hasRole, type PortalUser } from "./roles";

/** True when the user is named among the component's owners, directly or through one of their groups. */
export function isOwner(user: Pick<PortalUser, "id" | "groups">, component: Pick<Component, "spec">): boolean {
  return component.spec.owners.some((o) => o.user === user.id || (o.group !== undefined && user.groups.includes(o.group)));
}

/** Operators and the component's owners commit its record and persistent config; others propose. */
export function mayCommit(user: Pick<PortalUser, "id" | "groups" | "roles">, component: Pick<Component, "spec">): boolean {
  return hasRole(user, "operator") || isOwner(user, component);
}

/** mayCommit for a component of the catalog; throws not-found for a name the catalog does not hold. */
export function mayCommitTo(catalog: Pick<Catalog, "get">, user: Pick<PortalUser, "id" | "groups" | "roles">, name: string): boolean {
  const entry = catalog.get(name);
  if (!entry) throw componentNotFound(name);
  return mayCommit(user, entry.component);
}
