CREATE TABLE "offers_api_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"encrypted_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "offers_currencies" (
	"game_id" text NOT NULL,
	"currency_id" text NOT NULL,
	"name" text NOT NULL,
	"image" text NOT NULL,
	CONSTRAINT "offers_currencies_game_id_currency_id_pk" PRIMARY KEY("game_id","currency_id")
);
--> statement-breakpoint
CREATE TABLE "offers_games" (
	"game_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"max_offer_slots" integer DEFAULT 3 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers_definitions" (
	"game_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image" text,
	"rewards" jsonb NOT NULL,
	"completion_conditions" jsonb,
	"real_time" boolean DEFAULT false NOT NULL,
	"duration_seconds" integer NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_definitions_game_id_offer_id_pk" PRIMARY KEY("game_id","offer_id")
);
--> statement-breakpoint
CREATE TABLE "offers_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"instance_id" text NOT NULL,
	"type" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"cause" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers_instances" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"status" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"image" text,
	"rewards" jsonb NOT NULL,
	"completion_conditions" jsonb,
	"real_time" boolean NOT NULL,
	"duration_seconds" integer NOT NULL,
	"priority" integer NOT NULL,
	"tracker_baseline" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"completion_trackers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"surfaced_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers_one_time_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "offers_players" (
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"days_in_game" double precision DEFAULT 0 NOT NULL,
	"login_streak" double precision DEFAULT 0 NOT NULL,
	"trust_score" double precision DEFAULT 0 NOT NULL,
	"currencies" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"levels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"event_seq" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_players_game_id_player_id_pk" PRIMARY KEY("game_id","player_id")
);
--> statement-breakpoint
CREATE TABLE "offers_referrals" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"referrer_id" text NOT NULL,
	"referee_id" text NOT NULL,
	"rewards" jsonb NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "offers_reward_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" text NOT NULL,
	"rewards" jsonb NOT NULL,
	"granted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers_api_clients" ADD CONSTRAINT "offers_api_clients_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers_currencies" ADD CONSTRAINT "offers_currencies_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers_definitions" ADD CONSTRAINT "offers_definitions_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers_players" ADD CONSTRAINT "offers_players_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers_referrals" ADD CONSTRAINT "offers_referrals_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offers_api_clients_game_idx" ON "offers_api_clients" USING btree ("game_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_events_player_seq_idx" ON "offers_events" USING btree ("game_id","player_id","seq");--> statement-breakpoint
CREATE INDEX "offers_events_instance_idx" ON "offers_events" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "offers_instances_player_idx" ON "offers_instances" USING btree ("game_id","player_id","status");--> statement-breakpoint
CREATE INDEX "offers_instances_expiry_idx" ON "offers_instances" USING btree ("expires_at") WHERE status in ('inQueue', 'surfaced', 'viewed');--> statement-breakpoint
CREATE INDEX "offers_one_time_tokens_expiry_idx" ON "offers_one_time_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_referrals_referee_idx" ON "offers_referrals" USING btree ("game_id","referee_id");--> statement-breakpoint
CREATE INDEX "offers_referrals_referrer_idx" ON "offers_referrals" USING btree ("game_id","referrer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_reward_ledger_source_idx" ON "offers_reward_ledger" USING btree ("source_kind","source_id");--> statement-breakpoint
CREATE INDEX "offers_reward_ledger_player_idx" ON "offers_reward_ledger" USING btree ("game_id","player_id");