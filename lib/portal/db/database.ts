// The portal database's type, typed by its Drizzle schema. A module of its own (no server-only, no
// handle) so plain modules and tests can name the type without opening anything.
import type { AppDatabase } from "../../db";
import type * as schema from "./schema";

export type PortalDatabase = AppDatabase<typeof schema>;
