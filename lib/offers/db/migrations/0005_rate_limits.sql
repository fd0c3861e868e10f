ALTER TABLE "offers_games" ADD COLUMN "client_rate_limit_per_minute" integer;--> statement-breakpoint
ALTER TABLE "offers_games" ADD COLUMN "server_rate_limit_per_minute" integer;