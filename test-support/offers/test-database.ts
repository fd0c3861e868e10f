/** The offers service's database on its own (schema and migrations) on a test database, for tests of code that takes a db. */
import { offersMigrations, schema, type OffersSchema } from "../../lib/offers/db";
import { openTestDatabase, type TestDatabase, type TestDatabaseTarget } from "../db/test-databases";

export function openOffersTestDatabase(target: TestDatabaseTarget): Promise<TestDatabase<OffersSchema>> {
  return openTestDatabase(target, { schema, ...offersMigrations });
}
