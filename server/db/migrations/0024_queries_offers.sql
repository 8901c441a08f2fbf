CREATE TABLE "offer_responses" (
	"offer_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"decision" text NOT NULL,
	"typed_name" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"snapshot_sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_responses_offer_id_version_pk" PRIMARY KEY("offer_id","version")
);
--> statement-breakpoint
CREATE TABLE "offer_status_counts" (
	"seller_key" uuid NOT NULL,
	"status" text NOT NULL,
	"offers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "offer_status_counts_seller_key_status_pk" PRIMARY KEY("seller_key","status")
);
--> statement-breakpoint
CREATE TABLE "offer_versions" (
	"offer_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"snapshot_sha256" text NOT NULL,
	"currency" text NOT NULL,
	"total_minor" bigint NOT NULL,
	"valid_until" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_by" uuid,
	"sent_by_name" text DEFAULT '' NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp with time zone,
	CONSTRAINT "offer_versions_offer_id_version_pk" PRIMARY KEY("offer_id","version")
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"seller_id" uuid NOT NULL,
	"contact_id" uuid,
	"customer_id" uuid,
	"customer_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"shipping_address" jsonb,
	"message" text DEFAULT '' NOT NULL,
	"requested_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"query_id" uuid,
	"status" text DEFAULT 'requested' NOT NULL,
	"current_version" integer DEFAULT 0 NOT NULL,
	"draft" jsonb,
	"currency" text,
	"total_minor" bigint,
	"expires_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	"to_convert" boolean DEFAULT false NOT NULL,
	"order_id" uuid,
	"assignee_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"query_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"actor_name" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"outcome" text DEFAULT '' NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_status_counts" (
	"seller_key" uuid NOT NULL,
	"status" text NOT NULL,
	"queries" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "query_status_counts_seller_key_status_pk" PRIMARY KEY("seller_key","status")
);
--> statement-breakpoint
DROP INDEX "customer_queries_seller_status_idx";--> statement-breakpoint
ALTER TABLE "customer_queries" ALTER COLUMN "status" SET DEFAULT 'new';--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "number" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "product_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "priority" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "channel" text DEFAULT 'form' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "assignee_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "source_chat_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "source_call_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "next_follow_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "follow_up_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "follow_up_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "snoozed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "snooze_reopen_on_reply" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "first_response_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "first_response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "resolution_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "sla_breached" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "last_activity_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "offer_responses" ADD CONSTRAINT "offer_responses_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_versions" ADD CONSTRAINT "offer_versions_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_query_id_customer_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."customer_queries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "query_events" ADD CONSTRAINT "query_events_query_id_customer_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."customer_queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_number_uq" ON "offers" USING btree ("number");--> statement-breakpoint
CREATE INDEX "offers_seller_status_idx" ON "offers" USING btree ("seller_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "offers_status_idx" ON "offers" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "offers_created_idx" ON "offers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "offers_expiry_idx" ON "offers" USING btree ("expires_at") WHERE "offers"."status" = 'offered';--> statement-breakpoint
CREATE INDEX "offers_contact_idx" ON "offers" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "offers_search_trgm_idx" ON "offers" USING gin ((lower("customer_name" || ' ' || "email" || ' ' || "message")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "query_events_query_idx" ON "query_events" USING btree ("query_id","seq");--> statement-breakpoint
ALTER TABLE "customer_queries" ADD CONSTRAINT "customer_queries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD CONSTRAINT "customer_queries_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD CONSTRAINT "customer_queries_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD CONSTRAINT "customer_queries_source_chat_id_chat_sessions_id_fk" FOREIGN KEY ("source_chat_id") REFERENCES "public"."chat_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD CONSTRAINT "customer_queries_source_call_id_call_logs_id_fk" FOREIGN KEY ("source_call_id") REFERENCES "public"."call_logs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_queries_number_uq" ON "customer_queries" USING btree ("number");--> statement-breakpoint
CREATE INDEX "customer_queries_status_idx" ON "customer_queries" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "customer_queries_created_idx" ON "customer_queries" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "customer_queries_assignee_idx" ON "customer_queries" USING btree ("assignee_id","status","created_at");--> statement-breakpoint
CREATE INDEX "customer_queries_follow_up_idx" ON "customer_queries" USING btree ("next_follow_up_at") WHERE "customer_queries"."next_follow_up_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "customer_queries_search_trgm_idx" ON "customer_queries" USING gin ((lower("subject" || ' ' || "customer_name" || ' ' || "email" || ' ' || "message")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customer_queries_seller_status_idx" ON "customer_queries" USING btree ("seller_id","status","created_at","id");--> statement-breakpoint
-- Hand-written from here on. The demo queries' Open / Answered / Closed become open / waiting (for the
-- customer) / closed; anything else unknown becomes open, so nothing drops out of the inbox.
UPDATE "customer_queries" SET "status" = CASE "status"
  WHEN 'Open' THEN 'open' WHEN 'Answered' THEN 'waiting' WHEN 'Closed' THEN 'closed'
  WHEN 'new' THEN 'new' WHEN 'open' THEN 'open' WHEN 'waiting' THEN 'waiting'
  WHEN 'resolved' THEN 'resolved' WHEN 'closed' THEN 'closed' ELSE 'open' END;
--> statement-breakpoint
UPDATE "customer_queries" SET "channel" = 'form', "last_activity_at" = "updated_at";
--> statement-breakpoint
-- Each existing query's first event: its message, as the customer wrote it.
INSERT INTO "query_events" ("query_id", "kind", "actor_name", "body", "created_at")
  SELECT "id", 'message_in', "customer_name", "message", "created_at" FROM "customer_queries" ORDER BY "created_at", "id";
--> statement-breakpoint
-- query_status_counts and offer_status_counts follow every insert, update, delete and truncate of
-- their tables inside the writing transaction, as seller_tab_counts does (migration 0003): statement
-- triggers with transition tables, one upsert per (seller, status) per statement, taken in key order
-- so two writers never wait on each other in opposite orders.
CREATE FUNCTION query_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO query_status_counts AS c (seller_key, status, queries)
      SELECT coalesce(seller_id, '00000000-0000-0000-0000-000000000000'::uuid), status, count(*)::integer
      FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET queries = c.queries + excluded.queries;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO query_status_counts AS c (seller_key, status, queries)
      SELECT coalesce(seller_id, '00000000-0000-0000-0000-000000000000'::uuid), status, -count(*)::integer
      FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET queries = c.queries + excluded.queries;
  ELSE
    INSERT INTO query_status_counts AS c (seller_key, status, queries)
      SELECT seller_key, status, sum(delta)::integer FROM (
        SELECT coalesce(seller_id, '00000000-0000-0000-0000-000000000000'::uuid) AS seller_key, status, 1 AS delta FROM new_rows
        UNION ALL
        SELECT coalesce(seller_id, '00000000-0000-0000-0000-000000000000'::uuid), status, -1 FROM old_rows
      ) moved
      GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET queries = c.queries + excluded.queries;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION query_status_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM query_status_counts;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER query_status_counts_insert AFTER INSERT ON customer_queries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION query_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER query_status_counts_update AFTER UPDATE ON customer_queries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION query_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER query_status_counts_delete AFTER DELETE ON customer_queries
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION query_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER query_status_counts_truncate AFTER TRUNCATE ON customer_queries
  FOR EACH STATEMENT EXECUTE FUNCTION query_status_counts_reset();
--> statement-breakpoint
INSERT INTO query_status_counts (seller_key, status, queries)
  SELECT coalesce(seller_id, '00000000-0000-0000-0000-000000000000'::uuid), status, count(*)::integer
  FROM customer_queries GROUP BY 1, 2;
--> statement-breakpoint
CREATE FUNCTION offer_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO offer_status_counts AS c (seller_key, status, offers)
      SELECT seller_id, status, count(*)::integer FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET offers = c.offers + excluded.offers;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO offer_status_counts AS c (seller_key, status, offers)
      SELECT seller_id, status, -count(*)::integer FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET offers = c.offers + excluded.offers;
  ELSE
    INSERT INTO offer_status_counts AS c (seller_key, status, offers)
      SELECT seller_key, status, sum(delta)::integer FROM (
        SELECT seller_id AS seller_key, status, 1 AS delta FROM new_rows
        UNION ALL
        SELECT seller_id, status, -1 FROM old_rows
      ) moved
      GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET offers = c.offers + excluded.offers;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION offer_status_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM offer_status_counts;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER offer_status_counts_insert AFTER INSERT ON offers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION offer_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER offer_status_counts_update AFTER UPDATE ON offers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION offer_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER offer_status_counts_delete AFTER DELETE ON offers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION offer_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER offer_status_counts_truncate AFTER TRUNCATE ON offers
  FOR EACH STATEMENT EXECUTE FUNCTION offer_status_counts_reset();
