ALTER TABLE "offers_bulk_compensations" ADD COLUMN "items_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offers_bulk_compensations" ADD COLUMN "item_counts" jsonb;