CREATE TABLE "archive_calls" (
	"call_id" text PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"title" text NOT NULL,
	"exchange" text,
	"quarter" text,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"duration_seconds" integer,
	"status" text NOT NULL,
	"summary_points" jsonb,
	"summary_sentiment" real,
	"participants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"segment_count" integer DEFAULT 0 NOT NULL,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "archive_segments" (
	"call_id" text NOT NULL,
	"sequence" integer NOT NULL,
	"symbol" text NOT NULL,
	"call_start" timestamp with time zone NOT NULL,
	"speaker" text NOT NULL,
	"speaker_name" text,
	"role" text,
	"section" text NOT NULL,
	"start_ms" integer NOT NULL,
	"end_ms" integer NOT NULL,
	"text" text NOT NULL,
	"sentiment" real,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED NOT NULL,
	CONSTRAINT "archive_segments_call_id_sequence_pk" PRIMARY KEY("call_id","sequence")
);
--> statement-breakpoint
CREATE TABLE "archive_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "archive_segments" ADD CONSTRAINT "archive_segments_call_id_archive_calls_call_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."archive_calls"("call_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "archive_calls_symbol_idx" ON "archive_calls" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "archive_calls_start_idx" ON "archive_calls" USING btree ("start_time");--> statement-breakpoint
CREATE INDEX "archive_segments_search_idx" ON "archive_segments" USING gin ("search");--> statement-breakpoint
CREATE INDEX "archive_segments_symbol_idx" ON "archive_segments" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "archive_segments_call_start_idx" ON "archive_segments" USING btree ("call_start");