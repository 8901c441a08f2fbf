CREATE TABLE "call_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"phone_number" text NOT NULL,
	"phone_digits" text NOT NULL,
	"peer_user_id" uuid,
	"reference_type" text NOT NULL,
	"source" text NOT NULL,
	"call_status" text NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"duration_seconds" integer DEFAULT 0 NOT NULL,
	"feedback_rating" integer,
	"feedback_text" text,
	"timeline" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_logs" ADD CONSTRAINT "call_logs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_logs" ADD CONSTRAINT "call_logs_peer_user_id_users_id_fk" FOREIGN KEY ("peer_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_logs_owner_idx" ON "call_logs" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "call_logs_owner_status_idx" ON "call_logs" USING btree ("owner_id","call_status","created_at");--> statement-breakpoint
CREATE INDEX "call_logs_recent_idx" ON "call_logs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "call_logs_digits_trgm_idx" ON "call_logs" USING gin ("phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_digits_uq" ON "users" USING btree (regexp_replace("phone", '[^0-9]', '', 'g')) WHERE "users"."phone" <> '';