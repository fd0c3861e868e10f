ALTER TABLE "offers_events" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "offers_events" ADD COLUMN "reason" text;