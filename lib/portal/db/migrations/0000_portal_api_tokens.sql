CREATE TABLE "portal_api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"email" text,
	"groups" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"granted_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "portal_api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE INDEX "portal_api_tokens_user_idx" ON "portal_api_tokens" USING btree ("user_id");