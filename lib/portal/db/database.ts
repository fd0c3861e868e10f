// The portal database's types, typed by its Drizzle schema. A module of its own (no server-only, no
// handle) so plain modules and tests name the types without opening anything.
import type { AppDatabase, DatabaseHandle } from "../../db";
import type * as schema from "./schema";

export type PortalSchema = typeof schema;
export type PortalDatabase = AppDatabase<PortalSchema>;
export type PortalDbHandle = DatabaseHandle<PortalSchema>;
