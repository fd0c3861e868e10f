CREATE TABLE "merge_request_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"repository" text NOT NULL,
	"iid" integer NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"actor_name" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "merge_request_decisions_once" ON "merge_request_decisions" USING btree ("repository","iid","action","actor");--> statement-breakpoint
CREATE INDEX "merge_request_decisions_mr_idx" ON "merge_request_decisions" USING btree ("repository","iid");