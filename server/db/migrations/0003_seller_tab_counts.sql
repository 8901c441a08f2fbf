CREATE TABLE "seller_tab_counts" (
	"is_active" boolean NOT NULL,
	"is_email_verified" boolean NOT NULL,
	"is_kyc_done" boolean NOT NULL,
	"sellers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "seller_tab_counts_is_active_is_email_verified_is_kyc_done_pk" PRIMARY KEY("is_active","is_email_verified","is_kyc_done")
);
--> statement-breakpoint
DROP INDEX "sellers_tab_idx";--> statement-breakpoint
DROP INDEX "sellers_created_idx";--> statement-breakpoint
CREATE INDEX "sellers_name_idx" ON "sellers" USING btree ((lower("seller_name") COLLATE "C"),"id","seller_name","is_active","is_email_verified","is_kyc_done");--> statement-breakpoint
CREATE INDEX "sellers_tab_name_idx" ON "sellers" USING btree ((CASE WHEN "is_active" THEN 0 WHEN NOT "is_email_verified" THEN 1 WHEN NOT "is_kyc_done" THEN 2 ELSE 3 END),(lower("seller_name") COLLATE "C"),"id","seller_name","is_active","is_email_verified","is_kyc_done");--> statement-breakpoint
CREATE INDEX "sellers_code_idx" ON "sellers" USING btree ((lower("seller_code") COLLATE "C"),"id","seller_code","is_active","is_email_verified","is_kyc_done");--> statement-breakpoint
CREATE INDEX "sellers_tab_code_idx" ON "sellers" USING btree ((CASE WHEN "is_active" THEN 0 WHEN NOT "is_email_verified" THEN 1 WHEN NOT "is_kyc_done" THEN 2 ELSE 3 END),(lower("seller_code") COLLATE "C"),"id","seller_code","is_active","is_email_verified","is_kyc_done");--> statement-breakpoint
CREATE INDEX "sellers_tab_idx" ON "sellers" USING btree ((CASE WHEN "is_active" THEN 0 WHEN NOT "is_email_verified" THEN 1 WHEN NOT "is_kyc_done" THEN 2 ELSE 3 END),"created_at","id","is_active","is_email_verified","is_kyc_done");--> statement-breakpoint
CREATE INDEX "sellers_created_idx" ON "sellers" USING btree ("created_at","id","is_active","is_email_verified","is_kyc_done");--> statement-breakpoint
-- Hand-written from here on (drizzle-kit does not model triggers). seller_tab_counts follows every
-- insert, update, delete and truncate of sellers inside the writing transaction. Statement triggers
-- with transition tables apply one change per flag combination per statement (a 10,000-row batch is
-- one update, not 10,000), and take the count rows in key order so that two writers never wait on
-- each other in opposite orders. Writers of different combinations never touch the same row.
CREATE FUNCTION seller_tab_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes refcursor;
  change record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    OPEN changes FOR
      SELECT is_active, is_email_verified, is_kyc_done, count(*)::integer AS delta
      FROM new_sellers GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    OPEN changes FOR
      SELECT is_active, is_email_verified, is_kyc_done, -count(*)::integer AS delta
      FROM old_sellers GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
  ELSE
    -- Most updates leave the flags alone: every combination then nets to zero and nothing is written.
    OPEN changes FOR
      SELECT is_active, is_email_verified, is_kyc_done, sum(delta)::integer AS delta
      FROM (
        SELECT is_active, is_email_verified, is_kyc_done, 1 AS delta FROM new_sellers
        UNION ALL
        SELECT is_active, is_email_verified, is_kyc_done, -1 AS delta FROM old_sellers
      ) moved
      GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3;
  END IF;
  LOOP
    FETCH changes INTO change;
    EXIT WHEN NOT FOUND;
    UPDATE seller_tab_counts SET sellers = sellers + change.delta
    WHERE is_active = change.is_active
      AND is_email_verified = change.is_email_verified
      AND is_kyc_done = change.is_kyc_done;
  END LOOP;
  CLOSE changes;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION seller_tab_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE seller_tab_counts SET sellers = 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER seller_tab_counts_insert AFTER INSERT ON sellers
  REFERENCING NEW TABLE AS new_sellers
  FOR EACH STATEMENT EXECUTE FUNCTION seller_tab_counts_apply();
--> statement-breakpoint
CREATE TRIGGER seller_tab_counts_update AFTER UPDATE ON sellers
  REFERENCING OLD TABLE AS old_sellers NEW TABLE AS new_sellers
  FOR EACH STATEMENT EXECUTE FUNCTION seller_tab_counts_apply();
--> statement-breakpoint
CREATE TRIGGER seller_tab_counts_delete AFTER DELETE ON sellers
  REFERENCING OLD TABLE AS old_sellers
  FOR EACH STATEMENT EXECUTE FUNCTION seller_tab_counts_apply();
--> statement-breakpoint
CREATE TRIGGER seller_tab_counts_truncate AFTER TRUNCATE ON sellers
  FOR EACH STATEMENT EXECUTE FUNCTION seller_tab_counts_reset();
--> statement-breakpoint
-- Counted after the triggers exist: CREATE TRIGGER holds a lock that keeps writers out until this
-- migration commits, so no seller written meanwhile is missed or counted twice.
INSERT INTO seller_tab_counts (is_active, is_email_verified, is_kyc_done, sellers)
SELECT a.flag, e.flag, k.flag, (
  SELECT count(*) FROM sellers s
  WHERE s.is_active = a.flag AND s.is_email_verified = e.flag AND s.is_kyc_done = k.flag
)
FROM (VALUES (false), (true)) a (flag)
CROSS JOIN (VALUES (false), (true)) e (flag)
CROSS JOIN (VALUES (false), (true)) k (flag);
