// Favorite components, per portal user (the star on the catalog). One row per user and component name.
import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const componentFavorites = pgTable(
  "component_favorites",
  {
    /** The portal user id (the source-control user name). */
    userId: text("user_id").notNull(),
    /** metadata.name of the component. */
    componentName: text("component_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.componentName] }), index("component_favorites_component_idx").on(t.componentName)],
);

export type ComponentFavoriteRow = typeof componentFavorites.$inferSelect;
