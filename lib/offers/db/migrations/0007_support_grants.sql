CREATE TABLE "offers_support_grants" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"reward" jsonb NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text NOT NULL,
	"status" text NOT NULL,
	"approval_required" boolean NOT NULL,
	"decided_by" text,
	"decision_reason" text,
	"idempotency_key" text,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers_games" ADD COLUMN "support_approval_rules" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "offers_reward_events" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "offers_reward_events" ADD COLUMN "approved_by" text;--> statement-breakpoint
ALTER TABLE "offers_reward_events" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "offers_support_grants" ADD CONSTRAINT "offers_support_grants_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_support_grants_key_idx" ON "offers_support_grants" USING btree ("game_id","player_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "offers_support_grants_player_idx" ON "offers_support_grants" USING btree ("game_id","player_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_support_grants_pending_idx" ON "offers_support_grants" USING btree ("game_id","created_at") WHERE status = 'pending';