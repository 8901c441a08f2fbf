-- Ascending (…, updated_at, id): the grid's ORDER BY updated_at DESC, id DESC walks them backwards (server/modules/catalog/product-search.ts).
DROP INDEX "products_seller_updated_idx";--> statement-breakpoint
DROP INDEX "products_updated_idx";--> statement-breakpoint
DROP INDEX "products_status_updated_idx";--> statement-breakpoint
DROP INDEX "products_category_updated_idx";--> statement-breakpoint
CREATE INDEX "products_seller_updated_idx" ON "products" USING btree ("seller_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_updated_idx" ON "products" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "products_status_updated_idx" ON "products" USING btree ("status","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_category_updated_idx" ON "products" USING btree ("category_id","updated_at","id");