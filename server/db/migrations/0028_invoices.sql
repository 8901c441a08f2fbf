CREATE TABLE "invoice_counters" (
	"issuer" text NOT NULL,
	"series" text NOT NULL,
	"period" text NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "invoice_counters_issuer_series_period_pk" PRIMARY KEY("issuer","series","period")
);
--> statement-breakpoint
CREATE TABLE "invoice_status_counts" (
	"seller_key" uuid NOT NULL,
	"status" text NOT NULL,
	"invoices" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "invoice_status_counts_seller_key_status_pk" PRIMARY KEY("seller_key","status")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text DEFAULT 'invoice' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"issuer" text NOT NULL,
	"seller_id" uuid NOT NULL,
	"source" text NOT NULL,
	"order_id" uuid,
	"refund_id" uuid,
	"subscription_id" uuid,
	"credited_invoice_id" uuid,
	"number" text,
	"series" text,
	"period" text,
	"sequence" integer,
	"currency" text NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_email" text DEFAULT '' NOT NULL,
	"document" jsonb NOT NULL,
	"document_sha256" text,
	"total_minor" bigint NOT NULL,
	"tax_minor" bigint NOT NULL,
	"paid_minor" bigint DEFAULT 0 NOT NULL,
	"credited_minor" bigint DEFAULT 0 NOT NULL,
	"issue_date" text,
	"due_date" text,
	"pdf_key" text,
	"pdf_sha256" text,
	"xml_key" text,
	"json_key" text,
	"notes" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"issued_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	CONSTRAINT "invoices_money_ck" CHECK ("invoices"."paid_minor" >= 0 AND "invoices"."credited_minor" >= 0 AND "invoices"."total_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_subscription_id_seller_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."seller_subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credited_invoice_id_invoices_id_fk" FOREIGN KEY ("credited_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_uq" ON "invoices" USING btree ("issuer","kind","number");--> statement-breakpoint
CREATE INDEX "invoices_seller_status_idx" ON "invoices" USING btree ("seller_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_created_idx" ON "invoices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_uq" ON "invoices" USING btree ("order_id") WHERE kind = 'invoice' AND status <> 'cancelled';--> statement-breakpoint
CREATE INDEX "invoices_credited_idx" ON "invoices" USING btree ("credited_invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_due_idx" ON "invoices" USING btree ("due_date") WHERE status IN ('unpaid', 'pending', 'overdue');--> statement-breakpoint
CREATE INDEX "invoices_issue_date_idx" ON "invoices" USING btree ("issue_date");--> statement-breakpoint
CREATE INDEX "invoices_search_trgm_idx" ON "invoices" USING gin ((lower(coalesce("number", '') || ' ' || "buyer_name" || ' ' || "buyer_email")) gin_trgm_ops);--> statement-breakpoint
-- invoice_status_counts follows every change of invoices inside the writing transaction, as
-- order_status_counts does (migration 0027).
CREATE FUNCTION invoice_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO invoice_status_counts AS c (seller_key, status, invoices)
      SELECT seller_id, status, count(*)::integer FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET invoices = c.invoices + excluded.invoices;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO invoice_status_counts AS c (seller_key, status, invoices)
      SELECT seller_id, status, -count(*)::integer FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET invoices = c.invoices + excluded.invoices;
  ELSE
    INSERT INTO invoice_status_counts AS c (seller_key, status, invoices)
      SELECT seller_key, status, sum(delta)::integer FROM (
        SELECT seller_id AS seller_key, status, 1 AS delta FROM new_rows
        UNION ALL
        SELECT seller_id, status, -1 FROM old_rows
      ) moved
      GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (seller_key, status) DO UPDATE SET invoices = c.invoices + excluded.invoices;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION invoice_status_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invoice_status_counts;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER invoice_status_counts_insert AFTER INSERT ON invoices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER invoice_status_counts_update AFTER UPDATE ON invoices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER invoice_status_counts_delete AFTER DELETE ON invoices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER invoice_status_counts_truncate AFTER TRUNCATE ON invoices
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_status_counts_reset();
--> statement-breakpoint
-- An issued invoice or credit note is never edited nor deleted: its number, content and money owed stay
-- as issued; only its payment, reminders, status and stored files may follow.
CREATE FUNCTION invoices_issued_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.number IS NULL THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'issued invoice % cannot be deleted', OLD.number USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.number IS DISTINCT FROM OLD.number OR NEW.document IS DISTINCT FROM OLD.document
     OR NEW.document_sha256 IS DISTINCT FROM OLD.document_sha256 OR NEW.total_minor <> OLD.total_minor
     OR NEW.tax_minor <> OLD.tax_minor OR NEW.currency <> OLD.currency OR NEW.kind <> OLD.kind
     OR NEW.issuer <> OLD.issuer OR NEW.issue_date IS DISTINCT FROM OLD.issue_date
     OR NEW.due_date IS DISTINCT FROM OLD.due_date
     OR (OLD.pdf_sha256 IS NOT NULL AND NEW.pdf_sha256 IS DISTINCT FROM OLD.pdf_sha256) THEN
    RAISE EXCEPTION 'issued invoice % cannot be changed', OLD.number USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_issued_immutable BEFORE UPDATE OR DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_issued_immutable();
