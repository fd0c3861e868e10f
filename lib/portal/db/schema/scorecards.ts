// Scorecard trend: a snapshot per day of each component's level and of each owner group's levels.
// scorecard_snapshot_days holds one row per day taken: the instance that inserts it writes that day's
// rows in the same transaction, so a day is taken once whatever the number of instances.
import { index, integer, date, jsonb, pgTable, primaryKey, real, text, timestamp } from "drizzle-orm/pg-core";

export const scorecardSnapshotDays = pgTable("scorecard_snapshot_days", {
  /** The UTC day. */
  day: date("day", { mode: "string" }).primaryKey(),
  takenAt: timestamp("taken_at", { withTimezone: true }).notNull().defaultNow(),
  /** The config repository commit the levels were computed at. */
  commit: text("commit"),
  /** The levels in force that day, lowest first. */
  levels: jsonb("levels").$type<string[]>().notNull(),
});

export const scorecardComponentDays = pgTable(
  "scorecard_component_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    componentName: text("component_name").notNull(),
    /** The level reached; null below the lowest level. */
    level: text("level"),
    passed: integer("passed").notNull(),
    total: integer("total").notNull(),
  },
  (t) => [primaryKey({ columns: [t.componentName, t.day] }), index("scorecard_component_days_day_idx").on(t.day)],
);

export const scorecardGroupDays = pgTable(
  "scorecard_group_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    groupName: text("group_name").notNull(),
    /** Components per level name and "none". */
    levels: jsonb("levels").$type<Record<string, number>>().notNull(),
    /** Rules passed over rules applying (null with none applying). */
    score: real("score"),
  },
  (t) => [primaryKey({ columns: [t.groupName, t.day] }), index("scorecard_group_days_day_idx").on(t.day)],
);
