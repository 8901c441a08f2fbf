CREATE TABLE "video_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"caller_id" uuid NOT NULL,
	"callee_id" uuid NOT NULL,
	"state" text NOT NULL,
	"accepted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ring_deadline" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
ALTER TABLE "call_logs" ADD COLUMN "media" text DEFAULT 'voice' NOT NULL;--> statement-breakpoint
ALTER TABLE "video_calls" ADD CONSTRAINT "video_calls_caller_id_users_id_fk" FOREIGN KEY ("caller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_calls" ADD CONSTRAINT "video_calls_callee_id_users_id_fk" FOREIGN KEY ("callee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_calls_live_caller_idx" ON "video_calls" USING btree ("caller_id") WHERE "video_calls"."state" in ('ringing', 'accepted', 'connected');--> statement-breakpoint
CREATE INDEX "video_calls_live_callee_idx" ON "video_calls" USING btree ("callee_id") WHERE "video_calls"."state" in ('ringing', 'accepted', 'connected');