ALTER TABLE "archive_calls" ADD COLUMN "source" text DEFAULT 'upstream' NOT NULL;--> statement-breakpoint
ALTER TABLE "archive_calls" ADD COLUMN "content_hash" text;--> statement-breakpoint
CREATE INDEX "archive_calls_source_start_idx" ON "archive_calls" USING btree ("source","start_time");