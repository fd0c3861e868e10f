/**
 * :name from a request path. Anything that is not a record name — "..", "/", "%2F", "%2e%2e",
 * double-encoded forms, upper case, empty — is refused before it can reach a file path.
 */
import { isValidName } from "./schema";

export type NameCheck = { ok: true; name: string } | { ok: false; message: string };

export function checkName(raw: string | undefined): NameCheck {
  if (raw === undefined || raw === "") return { ok: false, message: "a component name is required" };
  let name = raw;
  try {
    // Next.js hands params decoded once; decode once more so "%252F" cannot slip through as "%2F".
    name = decodeURIComponent(raw);
  } catch {
    return { ok: false, message: "the component name is not valid URL encoding" };
  }
  if (name !== raw || !isValidName(name)) {
    return { ok: false, message: `"${raw.slice(0, 80)}" is not a valid component name (lowercase letters, digits and hyphens)` };
  }
  return { ok: true, name };
}
