// Personal API tokens: `Authorization: Bearer <token>` for scripts and CI.
// A token is "pat_" + 32 random bytes (base64url); only its SHA-256 is stored.
import "server-only";
import type { TokenSummary } from "./contracts/tokens";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { PortalDatabase } from "./db/database";
import { portalApiTokens } from "./db/schema/tokens";
import { normalizeRoles, type Role } from "./roles";
import { cachePerHandle, type CacheSettings } from "./ttl-cache";
import { recordAudit, type AuditContext } from "./audit";

type Db = PortalDatabase;

export const tokenPrefix = "pat_";
/** last_used_at is written at most this often per token, so busy scripts do not write on every call. */
const lastUsedResolutionMs = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function generateToken(): string {
  return tokenPrefix + randomBytes(32).toString("base64url");
}

export interface TokenOwner {
  id: string;
  name: string;
  email?: string;
  groups: string[];
}

/** What lists show: never the token or its hash. */
export type { TokenSummary } from "./contracts/tokens";

export interface VerifiedToken {
  tokenId: string;
  owner: TokenOwner;
  grantedRoles: Role[];
}

type Row = typeof portalApiTokens.$inferSelect;

/**
 * Verified tokens kept in memory, so a script's calls do not each read the database. Keyed by the
 * token's hash (the token itself is never kept); a revocation or re-seed in this process drops the
 * entry at once, one made by another instance (or in the database directly) is seen here after
 * `ttlMs` at most. Only live tokens are kept: an unknown one is read again on every call, so a token
 * created on another instance works at once.
 */
export type TokenCacheSettings = CacheSettings;
export const defaultTokenCacheSettings: TokenCacheSettings = { ttlMs: 5_000, maxEntries: 1_000 };

interface CachedToken {
  verified: VerifiedToken;
  /** When this process last knew the use to be recorded (epoch ms), so a cached token still records it. */
  lastUsedMs: number | null;
}

const tokenCaches = cachePerHandle<Db, string, CachedToken>("tokens", defaultTokenCacheSettings);
const tokenCacheOf = (db: Db) => tokenCaches.of(db);

/** Sets how verified tokens of `db` are cached (lib/portal/services.ts, from PORTAL_TOKEN_CACHE_TTL_MS). */
export function configureTokenCache(db: Db, settings: TokenCacheSettings, now?: () => number): void {
  tokenCaches.configure(db, settings, now);
}

/** Drops a verified token from the cache by its hash (a change made elsewhere: ./cache-invalidation.ts). */
export function forgetVerifiedToken(db: Db, tokenHash: string): void {
  tokenCacheOf(db).invalidate(tokenHash);
}

/** Pauses (every use reads the database) or resumes the verified-token cache of `db`. */
export function setTokenCacheActive(db: Db, active: boolean): void {
  if (active) tokenCacheOf(db).resume();
  else tokenCacheOf(db).pause();
}

/** A copy, so no caller can change what the cache answers next. */
function copyOf(v: VerifiedToken): VerifiedToken {
  return { tokenId: v.tokenId, owner: { ...v.owner, groups: [...v.owner.groups] }, grantedRoles: [...v.grantedRoles] };
}

function summary(row: Row): TokenSummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}

/**
 * Creates a token for the owner; the answer holds the token itself, which is never shown again. With
 * `audit` (who asked), the creation is audited in the same transaction (never the token).
 */
export async function createToken(db: Db, owner: TokenOwner, name: string, audit?: AuditContext): Promise<TokenSummary & { token: string }> {
  const token = generateToken();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(portalApiTokens)
      .values({
        userId: owner.id,
        userName: owner.name,
        email: owner.email ?? null,
        groups: owner.groups,
        name,
        tokenHash: hashToken(token),
        prefix: token.slice(0, tokenPrefix.length + 6),
      })
      .returning();
    if (audit) {
      await recordAudit(tx, audit, { action: "token.create", targetType: "token", target: row.id, summary: `created API token "${row.name}"`, after: { name: row.name, prefix: row.prefix } }, "in-transaction");
    }
    return { ...summary(row), token };
  });
}

/** The owner's live tokens, newest first. */
export async function listTokens(db: Db, userId: string): Promise<TokenSummary[]> {
  const rows = await db
    .select()
    .from(portalApiTokens)
    .where(and(eq(portalApiTokens.userId, userId), isNull(portalApiTokens.revokedAt)))
    .orderBy(desc(portalApiTokens.createdAt));
  return rows.map(summary);
}

/**
 * Revokes a live token. With `ownerId`, only that user's token; without, any (admins).
 * True when a token was revoked; false when there is no such live token (or it is someone else's).
 * With `audit` (who asked), a revocation is audited in the same transaction.
 */
export async function revokeToken(db: Db, id: string, ownerId?: string, audit?: AuditContext): Promise<boolean> {
  const conditions = [eq(portalApiTokens.id, id), isNull(portalApiTokens.revokedAt)];
  if (ownerId !== undefined) conditions.push(eq(portalApiTokens.userId, ownerId));
  const rows = await db.transaction(async (tx) => {
    const revoked = await tx
      .update(portalApiTokens)
      .set({ revokedAt: new Date() })
      .where(and(...conditions))
      .returning({ id: portalApiTokens.id, tokenHash: portalApiTokens.tokenHash });
    if (revoked.length > 0 && audit) {
      await recordAudit(tx, audit, { action: "token.revoke", targetType: "token", target: id, summary: `revoked API token ${id}`, before: { revoked: false }, after: { revoked: true } }, "in-transaction");
    }
    return revoked;
  });
  const cache = tokenCacheOf(db);
  for (const row of rows) cache.invalidate(row.tokenHash);
  return rows.length > 0;
}

/** The owner of a live token, or null; records the use. */
export async function verifyToken(db: Db, token: string): Promise<VerifiedToken | null> {
  if (!token.startsWith(tokenPrefix) && token.length < 16) return null;
  const hash = hashToken(token);
  const cache = tokenCacheOf(db);
  const now = new Date();
  const cached = cache.get(hash);
  if (cached) {
    if (cached.lastUsedMs === null || now.getTime() - cached.lastUsedMs >= lastUsedResolutionMs) {
      cached.lastUsedMs = now.getTime();
      await recordUse(db, cached.verified.tokenId, now);
    }
    return copyOf(cached.verified);
  }
  const epoch = cache.epoch;
  const [row] = await db
    .select()
    .from(portalApiTokens)
    .where(and(eq(portalApiTokens.tokenHash, hash), isNull(portalApiTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  let lastUsedMs = row.lastUsedAt?.getTime() ?? null;
  if (lastUsedMs === null || now.getTime() - lastUsedMs >= lastUsedResolutionMs) {
    await recordUse(db, row.id, now);
    lastUsedMs = now.getTime();
  }
  const verified: VerifiedToken = {
    tokenId: row.id,
    owner: { id: row.userId, name: row.userName, email: row.email ?? undefined, groups: row.groups },
    grantedRoles: normalizeRoles(row.grantedRoles),
  };
  cache.set(hash, { verified: copyOf(verified), lastUsedMs }, epoch);
  return verified;
}

/** last_used_at = now, unless another call recorded a use within the resolution meanwhile. */
async function recordUse(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(portalApiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(portalApiTokens.id, id),
        or(isNull(portalApiTokens.lastUsedAt), lt(portalApiTokens.lastUsedAt, new Date(now.getTime() - lastUsedResolutionMs))),
      ),
    );
}

/** PORTAL_DEV_TOKEN: a token of user `admin` with the admin role, created once (idempotent; concurrent starts are fine). */
export async function seedDevToken(db: Db, token: string): Promise<void> {
  await db
    .insert(portalApiTokens)
    .values({
      userId: "admin",
      userName: "admin",
      groups: [],
      grantedRoles: ["admin"],
      name: "PORTAL_DEV_TOKEN",
      tokenHash: hashToken(token),
      prefix: token.slice(0, 6),
    })
    .onConflictDoUpdate({ target: portalApiTokens.tokenHash, set: { revokedAt: null, grantedRoles: ["admin"] } });
  tokenCacheOf(db).invalidate(hashToken(token));
}
