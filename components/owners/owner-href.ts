/** An owner's page: /owners/<user> or /owners/<group path> (a group's slashes stay path separators). */
export function ownerHref(owner: string): string {
  return `/owners/${owner.split("/").map(encodeURIComponent).join("/")}`;
}
