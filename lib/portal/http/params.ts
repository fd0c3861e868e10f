// Path parameters shared by several portal routes.
import { z } from "zod";
import { checkName } from "@/lib/catalog/names";
import { firstIssue } from "./legacy";

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

/** `{name}` of the component routes; a bad name answers 400 with the sentence that says why (as before). */
export const componentParams = { schema: z.object({ name: componentName }), invalid: firstIssue };
