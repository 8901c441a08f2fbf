CREATE TABLE "auction_bidders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"auction_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"confirmed_at" timestamp with time zone,
	"token_hash" text,
	"registered_by" uuid,
	"outbid_mailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auction_bids" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"auction_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"bidder_id" uuid NOT NULL,
	"max_minor" bigint NOT NULL,
	"price_minor" bigint NOT NULL,
	"effective_end_at" timestamp with time zone NOT NULL,
	"placed_at" timestamp (6) with time zone NOT NULL,
	"placed_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"cancelled_by" uuid
);
--> statement-breakpoint
CREATE TABLE "auction_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"seller_id" uuid NOT NULL,
	"gap_seconds" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auctions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"event_id" uuid,
	"seller_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"currency" text NOT NULL,
	"starting_price_minor" bigint NOT NULL,
	"reserve_minor" bigint,
	"buy_now_minor" bigint,
	"increments" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"hard_end_at" timestamp with time zone NOT NULL,
	"soft_close_seconds" integer NOT NULL,
	"extension_seconds" integer NOT NULL,
	"payment_hours" integer DEFAULT 48 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"outcome" text,
	"cancel_reason" text,
	"price_minor" bigint,
	"leader_bidder_id" uuid,
	"leader_max_minor" bigint,
	"leader_sequence" integer,
	"leader_name" text,
	"effective_end_at" timestamp with time zone NOT NULL,
	"bids" integer DEFAULT 0 NOT NULL,
	"last_sequence" integer DEFAULT 0 NOT NULL,
	"bought_now" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"settlement" text,
	"winner_deadline" timestamp with time zone,
	"order_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "auctions_times_ck" CHECK ("auctions"."starts_at" < "auctions"."ends_at" AND "auctions"."ends_at" <= "auctions"."hard_end_at" AND "auctions"."effective_end_at" <= "auctions"."hard_end_at")
);
--> statement-breakpoint
ALTER TABLE "auction_bidders" ADD CONSTRAINT "auction_bidders_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_bidder_id_auction_bidders_id_fk" FOREIGN KEY ("bidder_id") REFERENCES "public"."auction_bidders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_events" ADD CONSTRAINT "auction_events_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_event_id_auction_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."auction_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auction_bidders_email_uq" ON "auction_bidders" USING btree ("auction_id","email");--> statement-breakpoint
CREATE INDEX "auction_bidders_token_idx" ON "auction_bidders" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "auction_bids_sequence_uq" ON "auction_bids" USING btree ("auction_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "auctions_number_uq" ON "auctions" USING btree ("number");--> statement-breakpoint
CREATE INDEX "auctions_status_idx" ON "auctions" USING btree ("status","starts_at","id");--> statement-breakpoint
CREATE INDEX "auctions_closing_idx" ON "auctions" USING btree ("status","effective_end_at");--> statement-breakpoint
CREATE INDEX "auctions_seller_idx" ON "auctions" USING btree ("seller_id","starts_at");--> statement-breakpoint
CREATE INDEX "auctions_event_idx" ON "auctions" USING btree ("event_id");--> statement-breakpoint
-- The ledger is append-only: no row is deleted, and an update may only cancel a bid (once).
CREATE FUNCTION auction_bids_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM auctions WHERE id = OLD.auction_id) THEN
      RETURN OLD; -- the auction itself is being deleted (a draft's cascade)
    END IF;
    RAISE EXCEPTION 'auction bids are never deleted' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.cancelled_at IS NOT NULL
     OR NEW.auction_id IS DISTINCT FROM OLD.auction_id OR NEW.sequence IS DISTINCT FROM OLD.sequence
     OR NEW.bidder_id IS DISTINCT FROM OLD.bidder_id OR NEW.max_minor IS DISTINCT FROM OLD.max_minor
     OR NEW.price_minor IS DISTINCT FROM OLD.price_minor
     OR NEW.effective_end_at IS DISTINCT FROM OLD.effective_end_at
     OR NEW.placed_at IS DISTINCT FROM OLD.placed_at OR NEW.placed_by IS DISTINCT FROM OLD.placed_by THEN
    RAISE EXCEPTION 'auction bids are append-only: only a cancellation may be recorded'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER auction_bids_append_only BEFORE UPDATE OR DELETE ON auction_bids
  FOR EACH ROW EXECUTE FUNCTION auction_bids_append_only();
