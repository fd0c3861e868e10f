CREATE TABLE "offers_bulk_compensation_items" (
	"job_id" text NOT NULL,
	"player_id" text NOT NULL,
	"outcome" text NOT NULL,
	"grant_id" text,
	"granted_at" timestamp with time zone,
	CONSTRAINT "offers_bulk_compensation_items_job_id_player_id_pk" PRIMARY KEY("job_id","player_id")
);
--> statement-breakpoint
CREATE TABLE "offers_bulk_compensations" (
	"job_id" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"source" text NOT NULL,
	"audience" jsonb,
	"reward" jsonb NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text NOT NULL,
	"status" text NOT NULL,
	"preview" jsonb NOT NULL,
	"decided_by" text,
	"decision_reason" text,
	"cancelled_by" text,
	"cancel_reason" text,
	"idempotency_key" text,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers_bulk_compensation_items" ADD CONSTRAINT "offers_bulk_compensation_items_job_id_offers_bulk_compensations_job_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."offers_bulk_compensations"("job_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers_bulk_compensations" ADD CONSTRAINT "offers_bulk_compensations_game_id_offers_games_game_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."offers_games"("game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offers_bulk_compensation_items_pending_idx" ON "offers_bulk_compensation_items" USING btree ("job_id","player_id") WHERE outcome = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "offers_bulk_compensations_key_idx" ON "offers_bulk_compensations" USING btree ("game_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "offers_bulk_compensations_game_idx" ON "offers_bulk_compensations" USING btree ("game_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_bulk_compensations_running_idx" ON "offers_bulk_compensations" USING btree ("created_at") WHERE status = 'running';