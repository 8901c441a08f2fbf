CREATE TABLE "chat_faqs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "chat_sessions_seller_idx";--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "color" text DEFAULT 'teal' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "held_by" uuid;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_faqs" ADD CONSTRAINT "chat_faqs_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_faqs_seller_idx" ON "chat_faqs" USING btree ("seller_id","position");--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_held_by_users_id_fk" FOREIGN KEY ("held_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_sessions_recent_idx" ON "chat_sessions" USING btree ("last_interaction_on","id");--> statement-breakpoint
CREATE INDEX "chat_sessions_search_trgm_idx" ON "chat_sessions" USING gin ((lower("name" || ' ' || "email" || ' ' || "last_message")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_sessions_seller_idx" ON "chat_sessions" USING btree ("seller_id","last_interaction_on","id");