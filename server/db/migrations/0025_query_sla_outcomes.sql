ALTER TABLE "customer_queries" ADD COLUMN "first_response_met" boolean;--> statement-breakpoint
ALTER TABLE "customer_queries" ADD COLUMN "resolution_met" boolean;--> statement-breakpoint
CREATE INDEX "customer_queries_resolved_idx" ON "customer_queries" USING btree ("resolved_at") WHERE "customer_queries"."resolved_at" IS NOT NULL;