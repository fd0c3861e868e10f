-- Every game gets its test environment: a tenant of its own, "<gameId>#test" ('#' is outside the
-- identifier rule, so no public game id can name one), with the game's settings and currencies.
-- Its API keys are created by `npm run offers -- keys:rotate <gameId> --environment test` (a migration
-- cannot encrypt them); games created from now on get both key sets at once.
INSERT INTO "offers_games" ("game_id", "name", "max_offer_slots", "max_token_lifetime_seconds", "created_at")
SELECT "game_id" || '#test', "name", "max_offer_slots", "max_token_lifetime_seconds", "created_at"
FROM "offers_games" WHERE "game_id" NOT LIKE '%#test'
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "offers_currencies" ("game_id", "currency_id", "name", "image")
SELECT "game_id" || '#test', "currency_id", "name", "image"
FROM "offers_currencies" WHERE "game_id" NOT LIKE '%#test'
ON CONFLICT DO NOTHING;
