DROP INDEX "contacts_country_idx";--> statement-breakpoint
CREATE INDEX "contacts_audience_idx" ON "contacts" USING btree ("country","company_type_id","language","subscription","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_unsubscribed_idx" ON "contacts" USING btree ("unsubscribed_at") WHERE "contacts"."subscription" = 'unsubscribed';