CREATE TABLE "scorecard_component_days" (
	"day" date NOT NULL,
	"component_name" text NOT NULL,
	"level" text,
	"passed" integer NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "scorecard_component_days_component_name_day_pk" PRIMARY KEY("component_name","day")
);
--> statement-breakpoint
CREATE TABLE "scorecard_group_days" (
	"day" date NOT NULL,
	"group_name" text NOT NULL,
	"levels" jsonb NOT NULL,
	"score" real,
	CONSTRAINT "scorecard_group_days_group_name_day_pk" PRIMARY KEY("group_name","day")
);
--> statement-breakpoint
CREATE TABLE "scorecard_snapshot_days" (
	"day" date PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"commit" text,
	"levels" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "scorecard_component_days_day_idx" ON "scorecard_component_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "scorecard_group_days_day_idx" ON "scorecard_group_days" USING btree ("day");