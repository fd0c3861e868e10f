CREATE TABLE "component_favorites" (
	"user_id" text NOT NULL,
	"component_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "component_favorites_user_id_component_name_pk" PRIMARY KEY("user_id","component_name")
);
--> statement-breakpoint
CREATE INDEX "component_favorites_component_idx" ON "component_favorites" USING btree ("component_name");