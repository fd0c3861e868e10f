CREATE TABLE "offers_surfacing_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"definition_version" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"cursor" text,
	"players_total" integer,
	"players_evaluated" integer DEFAULT 0 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "audience" jsonb;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "max_activations_per_player" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "cooldown_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "max_claims_total" integer;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "rollout" double precision DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD COLUMN "variants" jsonb;--> statement-breakpoint
ALTER TABLE "offers_events" ADD COLUMN "rule_version" integer;--> statement-breakpoint
ALTER TABLE "offers_instances" ADD COLUMN "variant_id" text;--> statement-breakpoint
ALTER TABLE "offers_instances" ADD COLUMN "definition_version" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_surfacing_jobs_version_idx" ON "offers_surfacing_jobs" USING btree ("game_id","offer_id","definition_version");--> statement-breakpoint
CREATE INDEX "offers_surfacing_jobs_pending_idx" ON "offers_surfacing_jobs" USING btree ("id") WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "offers_definitions_targeted_idx" ON "offers_definitions" USING btree ("game_id") WHERE status = 'active' and audience is not null;--> statement-breakpoint
CREATE INDEX "offers_instances_offer_idx" ON "offers_instances" USING btree ("game_id","offer_id","status");