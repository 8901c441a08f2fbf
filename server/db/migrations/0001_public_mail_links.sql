CREATE TABLE "email_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"campaign" text NOT NULL,
	"response" text NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_unsubscribes" (
	"email" text PRIMARY KEY NOT NULL,
	"unsubscribed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_responses_email_campaign_idx" ON "email_responses" USING btree ("email","campaign");--> statement-breakpoint
CREATE INDEX "email_responses_campaign_idx" ON "email_responses" USING btree ("campaign","created_at");