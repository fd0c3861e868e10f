CREATE TABLE "offers_player_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"player_id" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "offers_player_activity_timeline_idx" ON "offers_player_activity" USING btree ("game_id","player_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_player_activity_at_idx" ON "offers_player_activity" USING btree ("at");