-- Hand-written: the per-call word counts' delete in one statement (migration 0007 wrote them in two).
CREATE OR REPLACE FUNCTION "archive_call_terms_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement: the counts that reach 0 are deleted (storing a call again deletes all of its sentences, so all
  -- of its counts), the others lowered. An UPDATE writes a new index entry (the key carries the count), a DELETE
  -- does not: a call stored again cost about 125 ms of its triggers on PostgreSQL with an UPDATE of every count
  -- followed by a DELETE.
  WITH gone AS MATERIALIZED (
    SELECT w.lexeme, o.call_id, count(*)::int AS hits
    FROM old_rows o, unnest(tsvector_to_array(o.search)) AS w(lexeme)
    GROUP BY 1, 2
  ), deleted AS (
    DELETE FROM archive_call_terms t USING gone
    WHERE t.lexeme = gone.lexeme AND t.call_id = gone.call_id AND t.hits <= gone.hits
    RETURNING 1
  )
  UPDATE archive_call_terms t SET hits = t.hits - gone.hits
  FROM gone WHERE t.lexeme = gone.lexeme AND t.call_id = gone.call_id AND t.hits > gone.hits;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "archive_call_terms_replace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement: the counts that reach 0 are deleted (storing a call again deletes all of its sentences, so all
  -- of its counts), the others lowered. An UPDATE writes a new index entry (the key carries the count), a DELETE
  -- does not: a call stored again cost about 125 ms of its triggers on PostgreSQL with an UPDATE of every count
  -- followed by a DELETE.
  WITH gone AS MATERIALIZED (
    SELECT w.lexeme, o.call_id, count(*)::int AS hits
    FROM old_rows o, unnest(tsvector_to_array(o.search)) AS w(lexeme)
    GROUP BY 1, 2
  ), deleted AS (
    DELETE FROM archive_call_terms t USING gone
    WHERE t.lexeme = gone.lexeme AND t.call_id = gone.call_id AND t.hits <= gone.hits
    RETURNING 1
  )
  UPDATE archive_call_terms t SET hits = t.hits - gone.hits
  FROM gone WHERE t.lexeme = gone.lexeme AND t.call_id = gone.call_id AND t.hits > gone.hits;
  INSERT INTO archive_call_terms (lexeme, call_id, hits)
  SELECT w.lexeme, n.call_id, count(*)::int
  FROM new_rows n, unnest(tsvector_to_array(n.search)) AS w(lexeme)
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (lexeme, call_id) DO UPDATE SET hits = archive_call_terms.hits + excluded.hits;
  RETURN NULL;
END $$;
