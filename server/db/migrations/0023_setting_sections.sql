CREATE TABLE "setting_sections" (
	"seller_id" uuid,
	"section" text NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_by" uuid,
	"updated_by_name" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "setting_sections_scope_uq" UNIQUE NULLS NOT DISTINCT("seller_id","section")
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "default_currency" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "default_currency" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "default_country" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "default_country" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "default_language" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "default_language" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "setting_sections" ADD CONSTRAINT "setting_sections_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The users' own defaults become optional: an account whose defaults are the marketplace's (SPEC §9
-- IN, EN, INR, which nobody could change before) inherits them from now on.
UPDATE "users" SET "default_currency" = NULL WHERE "default_currency" = 'INR';--> statement-breakpoint
UPDATE "users" SET "default_country" = NULL WHERE "default_country" = 'IN';--> statement-breakpoint
UPDATE "users" SET "default_language" = NULL WHERE "default_language" = 'EN';--> statement-breakpoint
-- Every instance caches the effective settings (server/modules/settings/cache.ts). Any write tells every
-- instance at commit, whichever code path makes it; the payload is the seller's id, empty for the
-- marketplace's (which every seller inherits) and for a TRUNCATE.
CREATE OR REPLACE FUNCTION mp_notify_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('mp_settings_changed', '');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('mp_settings_changed', coalesce(OLD.seller_id::text, ''));
  ELSE
    PERFORM pg_notify('mp_settings_changed', coalesce(NEW.seller_id::text, ''));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER setting_sections_changed AFTER INSERT OR UPDATE OR DELETE ON setting_sections
  FOR EACH ROW EXECUTE FUNCTION mp_notify_settings_changed();
--> statement-breakpoint
CREATE TRIGGER setting_sections_truncated AFTER TRUNCATE ON setting_sections
  FOR EACH STATEMENT EXECUTE FUNCTION mp_notify_settings_changed();
