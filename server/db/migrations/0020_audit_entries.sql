CREATE TABLE "audit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid,
	"actor_id" uuid,
	"actor_name" text DEFAULT '' NOT NULL,
	"action" text NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"related_type" text,
	"related_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
-- Every entry of the five history tables, with its id. seq numbers them in the order each table's reader
-- listed them (time, then seq for products and tags, then id for the others), so every timeline reads
-- the same in the one table.
INSERT INTO "audit_entries" ("id", "subject_type", "subject_id", "actor_id", "actor_name", "action", "changes",
                             "note", "related_type", "related_id", "created_at", "seq")
SELECT "id", "subject_type", "subject_id", "actor_id", "actor_name", "action", "changes", "note", "related_type",
       "related_id", "created_at", row_number() OVER (ORDER BY "created_at", "old_seq", "id")
FROM (
  SELECT "id", 'seller' AS "subject_type", "seller_id" AS "subject_id", "actor_id", "actor_name", "action",
         "changes", "note", NULL::text AS "related_type", NULL::uuid AS "related_id", "created_at", 0::bigint AS "old_seq"
  FROM "seller_history"
  UNION ALL
  SELECT "id", 'product', "product_id", "actor_id", "actor_name", "action", "changes", "note", NULL, NULL,
         "created_at", "seq"
  FROM "product_history"
  UNION ALL
  SELECT "id", CASE "subject_type" WHEN 'request' THEN 'import_request' ELSE 'import' END, "subject_id",
         "actor_id", "actor_name", "action", "changes", "note", NULL, NULL, "created_at", 0
  FROM "import_history"
  UNION ALL
  SELECT "id", 'tag', "node_id", "actor_id", "actor_name", "action", "changes", "note", NULL, NULL, "created_at", "seq"
  FROM "tag_history"
  UNION ALL
  SELECT "id", 'contact', "contact_id", "actor_id", "actor_name", "action", "changes", "note",
         CASE WHEN "campaign_id" IS NOT NULL THEN 'campaign' END, "campaign_id", "created_at", 0
  FROM "contact_history"
) AS "old";
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"audit_entries"', 'seq'), coalesce(max("seq"), 0) + 1, false) FROM "audit_entries";
--> statement-breakpoint
DROP TABLE "contact_history" CASCADE;--> statement-breakpoint
DROP TABLE "import_history" CASCADE;--> statement-breakpoint
DROP TABLE "product_history" CASCADE;--> statement-breakpoint
DROP TABLE "seller_history" CASCADE;--> statement-breakpoint
DROP TABLE "tag_history" CASCADE;--> statement-breakpoint
CREATE INDEX "audit_entries_subject_idx" ON "audit_entries" USING btree ("subject_type","subject_id","created_at","seq");