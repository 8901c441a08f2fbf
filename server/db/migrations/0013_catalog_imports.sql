CREATE TABLE "catalog_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" uuid NOT NULL,
	"request_id" uuid,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"file_size" integer NOT NULL,
	"file_hash" text NOT NULL,
	"storage_path" text NOT NULL,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"title_overrides" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"current_batch_id" uuid,
	"created_by" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"import_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"step" text DEFAULT 'validate' NOT NULL,
	"move_kind" text,
	"mapping" jsonb NOT NULL,
	"blank_policy" text DEFAULT 'keep' NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"checkpoint_line" integer DEFAULT 0 NOT NULL,
	"rows_moved" integer DEFAULT 0 NOT NULL,
	"move_line" integer DEFAULT 0 NOT NULL,
	"rows_to_move" integer DEFAULT 0 NOT NULL,
	"counts" jsonb NOT NULL,
	"results" jsonb NOT NULL,
	"error" text,
	"rows_per_second" double precision,
	"stop_requested" boolean DEFAULT false NOT NULL,
	"task_id" uuid,
	"created_by" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "import_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_mappings" (
	"seller_id" uuid PRIMARY KEY NOT NULL,
	"targets" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text,
	"storage_path" text,
	"feed_url" text,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_id" uuid,
	"assignee_name" text,
	"response" text,
	"created_by" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"batch_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"outcome" text NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"sku_key" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"dup_key" text,
	"cells" json NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"duplicate_of" json,
	"product_id" uuid,
	"planned" json,
	"result" text,
	"result_message" text,
	CONSTRAINT "import_rows_batch_id_line_pk" PRIMARY KEY("batch_id","line")
);
--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD CONSTRAINT "catalog_imports_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_import_id_catalog_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."catalog_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_requests" ADD CONSTRAINT "import_requests_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_batch_id_import_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."import_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_imports_seller_idx" ON "catalog_imports" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "catalog_imports_created_idx" ON "catalog_imports" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "catalog_imports_request_idx" ON "catalog_imports" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "import_batches_number_uq" ON "import_batches" USING btree ("import_id","number");--> statement-breakpoint
CREATE INDEX "import_batches_created_idx" ON "import_batches" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "import_history_subject_idx" ON "import_history" USING btree ("subject_type","subject_id","created_at");--> statement-breakpoint
CREATE INDEX "import_requests_status_idx" ON "import_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "import_requests_seller_idx" ON "import_requests" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "import_rows_outcome_idx" ON "import_rows" USING btree ("batch_id","outcome","line");--> statement-breakpoint
CREATE INDEX "products_seller_title_idx" ON "products" USING btree ("seller_id","title_key");