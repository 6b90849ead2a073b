CREATE TABLE "archive_call_terms" (
	"lexeme" text NOT NULL,
	"call_id" text NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "archive_call_terms_lexeme_call_id_pk" PRIMARY KEY("lexeme","call_id") INCLUDE ("hits")
);
--> statement-breakpoint
-- Hand-written from here (drizzle-kit knows no INCLUDE, trigger or data move): the table's counts follow every write
-- of archive_segments, one statement at a time (transition tables: a call's sentences are a few INSERTs, and their
-- words one upsert each). Search reads it (server/archive/search.ts; docs/storage.md "Search at library scale").
CREATE FUNCTION "archive_call_terms_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO archive_call_terms (lexeme, call_id, hits)
  SELECT w.lexeme, n.call_id, count(*)::int
  FROM new_rows n, unnest(tsvector_to_array(n.search)) AS w(lexeme)
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (lexeme, call_id) DO UPDATE SET hits = archive_call_terms.hits + excluded.hits;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "archive_call_terms_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE archive_call_terms t SET hits = t.hits - g.hits
  FROM (
    SELECT w.lexeme, o.call_id, count(*)::int AS hits
    FROM old_rows o, unnest(tsvector_to_array(o.search)) AS w(lexeme)
    GROUP BY 1, 2
  ) g
  WHERE t.lexeme = g.lexeme AND t.call_id = g.call_id;
  -- A word no sentence of the call holds any more leaves no row (search would count the call with 0 hits).
  DELETE FROM archive_call_terms t
  USING (SELECT DISTINCT w.lexeme, o.call_id FROM old_rows o, unnest(tsvector_to_array(o.search)) AS w(lexeme)) g
  WHERE t.lexeme = g.lexeme AND t.call_id = g.call_id AND t.hits <= 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "archive_call_terms_replace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE archive_call_terms t SET hits = t.hits - g.hits
  FROM (
    SELECT w.lexeme, o.call_id, count(*)::int AS hits
    FROM old_rows o, unnest(tsvector_to_array(o.search)) AS w(lexeme)
    GROUP BY 1, 2
  ) g
  WHERE t.lexeme = g.lexeme AND t.call_id = g.call_id;
  -- A word no sentence of the call holds any more leaves no row (search would count the call with 0 hits).
  DELETE FROM archive_call_terms t
  USING (SELECT DISTINCT w.lexeme, o.call_id FROM old_rows o, unnest(tsvector_to_array(o.search)) AS w(lexeme)) g
  WHERE t.lexeme = g.lexeme AND t.call_id = g.call_id AND t.hits <= 0;
  INSERT INTO archive_call_terms (lexeme, call_id, hits)
  SELECT w.lexeme, n.call_id, count(*)::int
  FROM new_rows n, unnest(tsvector_to_array(n.search)) AS w(lexeme)
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (lexeme, call_id) DO UPDATE SET hits = archive_call_terms.hits + excluded.hits;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "archive_segments_terms_insert" AFTER INSERT ON "archive_segments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "archive_call_terms_add"();
--> statement-breakpoint
CREATE TRIGGER "archive_segments_terms_delete" AFTER DELETE ON "archive_segments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "archive_call_terms_remove"();
--> statement-breakpoint
CREATE TRIGGER "archive_segments_terms_update" AFTER UPDATE ON "archive_segments"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "archive_call_terms_replace"();
--> statement-breakpoint
-- The sentences already stored.
INSERT INTO "archive_call_terms" (lexeme, call_id, hits)
SELECT w.lexeme, s.call_id, count(*)::int
FROM "archive_segments" s, unnest(tsvector_to_array(s.search)) AS w(lexeme)
GROUP BY 1, 2;
--> statement-breakpoint
-- Search joins the matching calls to their ticker, start and quarter (facets and filters) from this index alone: the
-- calls' rows are wide (participants, summary), and hashing all of them read ~300 pages per search at 2,000 calls.
CREATE INDEX "archive_calls_facets_idx" ON "archive_calls" USING btree ("call_id") INCLUDE ("symbol", "start_time", "quarter");
