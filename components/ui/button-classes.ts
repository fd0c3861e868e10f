export type ButtonVariant = "default" | "primary" | "danger" | "ghost";
export type ButtonSize = "normal" | "small";

/** The classes of a button's look (app/globals.css), shared by buttons and links that look like one. */
export function buttonClasses(variant: ButtonVariant, size: ButtonSize, extra?: string): string {
  return ["ui-button", variant !== "default" && `ui-button--${variant}`, size === "small" && "ui-button--small", extra].filter(Boolean).join(" ");
}
