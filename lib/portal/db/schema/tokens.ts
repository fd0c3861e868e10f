// Personal API tokens: only a SHA-256 hash of each token is stored; the token itself is shown once.
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const portalApiTokens = pgTable(
  "portal_api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The owner's portal user id (the source-control user name). */
    userId: text("user_id").notNull(),
    userName: text("user_name").notNull(),
    email: text("email"),
    /** The owner's groups when the token was created (roles are resolved from config on every use). */
    groups: jsonb("groups").$type<string[]>().notNull().default([]),
    /** Roles granted to this token on top of the owner's configured roles (the seeded dev token: admin). */
    grantedRoles: jsonb("granted_roles").$type<string[]>().notNull().default([]),
    name: text("name").notNull(),
    /** Hex SHA-256 of the whole token. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the token, to recognise it in a list. */
    prefix: text("prefix").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("portal_api_tokens_user_idx").on(t.userId)],
);

export type PortalApiTokenRow = typeof portalApiTokens.$inferSelect;
