ALTER TABLE "scm_merge_requests" ADD COLUMN "checked_source_sha" text;--> statement-breakpoint
ALTER TABLE "scm_merge_requests" ADD COLUMN "checked_target_sha" text;--> statement-breakpoint
ALTER TABLE "scm_merge_requests" ADD COLUMN "has_conflicts" boolean;