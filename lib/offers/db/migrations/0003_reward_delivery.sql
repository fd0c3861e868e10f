CREATE TABLE "offers_reward_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text DEFAULT ('evt_' || replace(gen_random_uuid()::text, '-', '')) NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"type" text DEFAULT 'reward.granted' NOT NULL,
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" text NOT NULL,
	"offer_id" text,
	"variant_id" text,
	"rewards" jsonb NOT NULL,
	"source" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers_webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"game_id" text NOT NULL,
	"message_id" text NOT NULL,
	"event_type" text NOT NULL,
	"reward_event_id" bigint,
	"payload" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_token" text,
	"leased_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"last_latency_ms" integer,
	"attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers_webhook_endpoints" (
	"endpoint_id" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"encrypted_secret" text NOT NULL,
	"previous_encrypted_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers_webhook_deliveries" ADD CONSTRAINT "offers_webhook_deliveries_endpoint_id_offers_webhook_endpoints_endpoint_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."offers_webhook_endpoints"("endpoint_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers_webhook_deliveries" ADD CONSTRAINT "offers_webhook_deliveries_reward_event_id_offers_reward_events_id_fk" FOREIGN KEY ("reward_event_id") REFERENCES "public"."offers_reward_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers_webhook_endpoints" ADD CONSTRAINT "offers_webhook_endpoints_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_reward_events_event_id_idx" ON "offers_reward_events" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "offers_reward_events_feed_idx" ON "offers_reward_events" USING btree ("game_id","xid","id");--> statement-breakpoint
CREATE INDEX "offers_reward_events_commit_idx" ON "offers_reward_events" USING btree ("xid","id");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_webhook_deliveries_message_idx" ON "offers_webhook_deliveries" USING btree ("endpoint_id","message_id");--> statement-breakpoint
CREATE INDEX "offers_webhook_deliveries_due_idx" ON "offers_webhook_deliveries" USING btree ("endpoint_id","next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "offers_webhook_deliveries_game_idx" ON "offers_webhook_deliveries" USING btree ("game_id","id");--> statement-breakpoint
CREATE INDEX "offers_webhook_deliveries_failed_idx" ON "offers_webhook_deliveries" USING btree ("game_id","event_at") WHERE status = 'failed';--> statement-breakpoint
CREATE INDEX "offers_webhook_endpoints_game_idx" ON "offers_webhook_endpoints" USING btree ("game_id");