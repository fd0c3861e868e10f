CREATE TABLE "component_config_current" (
	"component" text NOT NULL,
	"environment" text NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"release_id" uuid,
	CONSTRAINT "component_config_current_component_environment_pk" PRIMARY KEY("component","environment")
);
--> statement-breakpoint
CREATE TABLE "component_releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"component" text NOT NULL,
	"environment" text NOT NULL,
	"version" text NOT NULL,
	"tag" text NOT NULL,
	"commit_sha" text NOT NULL,
	"source_ref" text NOT NULL,
	"release_type" text NOT NULL,
	"released_by" text NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"config_commit" text
);
--> statement-breakpoint
CREATE TABLE "scm_merge_requests" (
	"repository" text NOT NULL,
	"iid" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"source_branch" text NOT NULL,
	"target_branch" text NOT NULL,
	"state" text DEFAULT 'opened' NOT NULL,
	"author" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"merged_at" timestamp with time zone,
	"merge_commit_sha" text,
	CONSTRAINT "scm_merge_requests_repository_iid_pk" PRIMARY KEY("repository","iid")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "component_releases_staging_version_uq" ON "component_releases" USING btree ("component","version") WHERE "component_releases"."environment" = 'staging';--> statement-breakpoint
CREATE INDEX "component_releases_component_idx" ON "component_releases" USING btree ("component","environment","released_at");--> statement-breakpoint
CREATE INDEX "scm_merge_requests_state_idx" ON "scm_merge_requests" USING btree ("repository","state");