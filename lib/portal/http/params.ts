// Path parameters shared by several portal routes.
import { z } from "zod";
import { checkName } from "@/lib/catalog/names";

/** :name of /api/components/:name/…: a record name, refused before it can reach a file path (lib/catalog/names.ts). */
export const componentName = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const check = checkName(raw);
    if (check.ok) return check.name;
    ctx.addIssue({ code: "custom", message: check.message });
    return z.NEVER;
  });

/** `{name}` of the component routes; a bad name answers 400 invalid-request whose detail says why. */
export const componentParams = z.object({ name: componentName });
