CREATE TABLE "chat_reads" (
	"user_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"read_messages" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_reads_user_id_chat_id_pk" PRIMARY KEY("user_id","chat_id")
);
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "customer_messages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "connect_request_mark" integer;--> statement-breakpoint
ALTER TABLE "chat_reads" ADD CONSTRAINT "chat_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_reads" ADD CONSTRAINT "chat_reads_chat_id_chat_sessions_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_reads_chat_idx" ON "chat_reads" USING btree ("chat_id");--> statement-breakpoint
-- Chats stored before: count their customers' messages; a connect request still shown is pending.
UPDATE "chat_sessions" SET "customer_messages" = (
	SELECT count(*) FROM "chat_messages" WHERE "chat_messages"."chat_id" = "chat_sessions"."id" AND "chat_messages"."sender" = 'User'
);--> statement-breakpoint
UPDATE "chat_sessions" SET "connect_request_mark" = "customer_messages" WHERE "connect_request";
