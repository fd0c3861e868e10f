/**
 * Secrets that the embedded defaults generate once and keep under DATA_DIR/secrets/,
 * so a fresh machine works without configuration and restarts keep the same values.
 * An explicit environment value always wins.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function persistentSecret(dataDir: string, name: string, explicit?: string, bytes = 32): string {
  if (explicit) return explicit;
  const dir = path.resolve(dataDir, "secrets");
  const file = path.join(dir, name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const value = randomBytes(bytes).toString("base64url");
    try {
      // "wx": if another process created it meanwhile, read theirs instead.
      writeFileSync(file, value, { flag: "wx", mode: 0o600 });
      return value;
    } catch {
      return readFileSync(file, "utf8").trim();
    }
  }
}
