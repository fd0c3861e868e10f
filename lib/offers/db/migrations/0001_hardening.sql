CREATE TABLE "offers_idempotency_keys" (
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"rewards" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offers_idempotency_keys_game_id_player_id_endpoint_key_pk" PRIMARY KEY("game_id","player_id","endpoint","key")
);
--> statement-breakpoint
CREATE TABLE "offers_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers_games" ADD COLUMN "max_token_lifetime_seconds" integer DEFAULT 86400 NOT NULL;--> statement-breakpoint
CREATE INDEX "offers_idempotency_keys_expiry_idx" ON "offers_idempotency_keys" USING btree ("expires_at");