import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * The portal's link: next/link without prefetching unless a link asks for it. Every portal page
 * renders per request (the session, the CSP nonce), so a prefetch is a whole server render of a page
 * that may never be opened: the menu and a list of components asked for a dozen or more renders as a
 * page showed. A page is fetched when its link is followed.
 */
export function Link({ prefetch = false, ...props }: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={prefetch} {...props} />;
}
