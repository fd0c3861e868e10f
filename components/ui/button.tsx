import Link from "next/link";
import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from "react";

export type ButtonVariant = "default" | "primary" | "danger" | "ghost";

function classes(variant: ButtonVariant, size: "normal" | "small", extra?: string) {
  return ["ui-button", variant !== "default" && `ui-button--${variant}`, size === "small" && "ui-button--small", extra].filter(Boolean).join(" ");
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: "normal" | "small";
}

export function Button({ variant = "default", size = "normal", className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={classes(variant, size, className)} {...props} />;
}

export interface ButtonLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  variant?: ButtonVariant;
  size?: "normal" | "small";
}

/** A link that looks like a button. */
export function ButtonLink({ variant = "default", size = "normal", className, href, ...props }: ButtonLinkProps) {
  return <Link href={href} className={classes(variant, size, className)} {...props} />;
}
