DROP INDEX "product_history_product_idx";--> statement-breakpoint
ALTER TABLE "product_history" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "product_history_product_idx" ON "product_history" USING btree ("product_id","created_at","seq");