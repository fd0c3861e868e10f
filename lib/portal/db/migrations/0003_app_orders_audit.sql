CREATE TABLE "app_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"kind" text NOT NULL,
	"component" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requester" text NOT NULL,
	"requester_name" text NOT NULL,
	"merge_request_repo" text,
	"merge_request_iid" integer,
	"merge_request_url" text,
	"source_branch" text,
	"merge_commit_sha" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target" text NOT NULL,
	"component" text,
	"summary" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"request_id" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "app_orders_open_name_uq" ON "app_orders" USING btree ("name") WHERE "app_orders"."status" in ('pending', 'approving');--> statement-breakpoint
CREATE INDEX "app_orders_status_idx" ON "app_orders" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "app_orders_requester_idx" ON "app_orders" USING btree ("requester","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor","at");--> statement-breakpoint
CREATE INDEX "audit_log_component_idx" ON "audit_log" USING btree ("component","at");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target");