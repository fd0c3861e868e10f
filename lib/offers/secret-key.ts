/**
 * The secret key that seals the stored API keys (OFFERS_SECRET_KEY) must be the same on every
 * instance and across restarts. Its check value (an HMAC of a constant under the key) is stored
 * once in offers_settings; an instance or a CLI run with another key refuses to start, instead of
 * answering every API-key request with an error.
 *
 * Rotation of the secret key itself: every instance and the CLI get the new key as
 * OFFERS_SECRET_KEY and the old one as OFFERS_SECRET_KEY_PREVIOUS (both decrypt, the new one
 * encrypts; the stored check value still names the old key, so they start); then
 * `npm run offers -- secret-key:rotate` re-seals every stored key under the new key and moves the
 * check value to it, in one transaction; then OFFERS_SECRET_KEY_PREVIOUS is removed.
 */
import { eq, sql } from "drizzle-orm";
import type { OffersDatabase } from "./db";
import { apiClients, settings, webhookEndpoints } from "./db/schema";
import { SecretKeyMismatchError, type SecretBox } from "./secret-box";

export const SECRET_KEY_CHECK_SETTING = "secret-key-check";

/** Refusal to start (or to run a CLI command) with a secret key that does not match the stored keys. */
export class SecretKeyRefusedError extends Error {}

export type SecretKeyState =
  /** The stored check value is the current key's. */
  | "current"
  /** The stored check value is OFFERS_SECRET_KEY_PREVIOUS's: a rotation waits for secret-key:rotate. */
  | "rotation-pending";

function mismatch(hint?: string): SecretKeyRefusedError {
  return new SecretKeyRefusedError(
    "OFFERS_SECRET_KEY does not match the key that encrypted the stored API keys (its check value differs from the one " +
      "stored in offers_settings). Start every instance with the same OFFERS_SECRET_KEY; to change the key, follow " +
      `"Rotating OFFERS_SECRET_KEY" in docs/operations/games.md.${hint ? ` ${hint}` : ""}`,
  );
}

async function readCheckValue(db: OffersDatabase): Promise<string | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.name, SECRET_KEY_CHECK_SETTING));
  return row?.value;
}

/**
 * The check value a database without one should get: the key that opens every stored API key
 * (the previous one if some still need it), or the current key when nothing is stored yet.
 * Throws when some stored key opens with neither.
 */
async function deriveCheckValue(db: OffersDatabase, box: SecretBox, hint?: string): Promise<string> {
  const rows = await db.select({ clientId: apiClients.clientId, sealed: apiClients.encryptedKey }).from(apiClients);
  let needsPrevious = false;
  const unreadable: string[] = [];
  for (const row of rows) {
    try {
      needsPrevious ||= box.open(row.sealed).withPrevious;
    } catch (error) {
      if (!(error instanceof SecretKeyMismatchError)) throw error;
      unreadable.push(row.clientId);
    }
  }
  if (unreadable.length > 0) {
    throw mismatch(`${unreadable.length} of ${rows.length} stored API keys cannot be decrypted (clients ${unreadable.slice(0, 5).join(", ")}${unreadable.length > 5 ? ", …" : ""}).${hint ? ` ${hint}` : ""}`);
  }
  return needsPrevious ? box.previousCheckValue! : box.checkValue;
}

/**
 * Checks the box's keys against the stored check value, storing it first on a database that has
 * none (derived from the stored API keys). Answers the state, or throws SecretKeyRefusedError.
 * `hint` is added to the refusal (e.g. where a generated key came from).
 */
export async function ensureSecretKeyMatches(db: OffersDatabase, box: SecretBox, hint?: string): Promise<SecretKeyState> {
  let stored = await readCheckValue(db);
  if (stored === undefined) {
    const derived = await deriveCheckValue(db, box, hint);
    // Two instances starting together on a fresh database: the first to write wins, the other compares.
    await db.insert(settings).values({ name: SECRET_KEY_CHECK_SETTING, value: derived }).onConflictDoNothing();
    stored = await readCheckValue(db);
  }
  if (stored === box.checkValue) return "current";
  if (stored !== undefined && stored === box.previousCheckValue) return "rotation-pending";
  throw mismatch(hint);
}

export interface RotationResult {
  /** Stored API keys re-sealed under the current key. */
  resealed: number;
  /** Stored API keys already sealed under the current key. */
  unchanged: number;
  /** Webhook signing secrets (current and previous ones) re-sealed under the current key. */
  webhookSecretsResealed: number;
}

/**
 * Re-seals every stored API key under the current key and makes its check value the stored one,
 * in one transaction: either every key and the check value move, or nothing does. Refuses when the
 * stored check value names neither key, or when a stored key opens with neither.
 */
export async function rotateSecretKey(db: OffersDatabase, box: SecretBox): Promise<RotationResult> {
  await ensureSecretKeyMatches(db, box);
  return db.transaction(async (tx) => {
    // Serialises concurrent rotations and new checks on the same row.
    const [check] = await tx.select().from(settings).where(eq(settings.name, SECRET_KEY_CHECK_SETTING)).for("update");
    if (!check || (check.value !== box.checkValue && check.value !== box.previousCheckValue)) throw mismatch();
    const rows = await tx.select({ clientId: apiClients.clientId, sealed: apiClients.encryptedKey }).from(apiClients).for("update");
    let resealed = 0;
    for (const row of rows) {
      let opened: { plain: string; withPrevious: boolean };
      try {
        opened = box.open(row.sealed);
      } catch (error) {
        if (error instanceof SecretKeyMismatchError) throw mismatch(`Stored API key of client ${row.clientId} opens with neither key; nothing was changed.`);
        throw error;
      }
      if (!opened.withPrevious) continue;
      await tx.update(apiClients).set({ encryptedKey: box.encrypt(opened.plain) }).where(eq(apiClients.clientId, row.clientId));
      resealed += 1;
    }
    // Webhook signing secrets are sealed with the same key.
    const endpoints = await tx.select().from(webhookEndpoints).for("update");
    let webhookSecretsResealed = 0;
    const reseal = (sealed: string, what: string): string | null => {
      try {
        const opened = box.open(sealed);
        if (!opened.withPrevious) return null;
        webhookSecretsResealed += 1;
        return box.encrypt(opened.plain);
      } catch (error) {
        if (error instanceof SecretKeyMismatchError) throw mismatch(`Stored ${what} opens with neither key; nothing was changed.`);
        throw error;
      }
    };
    for (const endpoint of endpoints) {
      const current = reseal(endpoint.encryptedSecret, `signing secret of webhook endpoint ${endpoint.endpointId}`);
      const previous = endpoint.previousEncryptedSecret ? reseal(endpoint.previousEncryptedSecret, `previous signing secret of webhook endpoint ${endpoint.endpointId}`) : null;
      if (current || previous) {
        await tx
          .update(webhookEndpoints)
          .set({ ...(current ? { encryptedSecret: current } : {}), ...(previous ? { previousEncryptedSecret: previous } : {}) })
          .where(eq(webhookEndpoints.endpointId, endpoint.endpointId));
      }
    }
    await tx.update(settings).set({ value: box.checkValue, updatedAt: sql`now()` }).where(eq(settings.name, SECRET_KEY_CHECK_SETTING));
    return { resealed, unchanged: rows.length - resealed, webhookSecretsResealed };
  });
}
