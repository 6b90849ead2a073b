import "server-only";
import { sql, type SQL } from "drizzle-orm";
import {
  SEARCH_NOTES_LIMIT,
  type SearchNote,
  type SearchNotesResult,
  type SearchQuery,
} from "@/lib/schemas/search";
import { queryRows, type Db } from "../db/database";
import { HIGHLIGHT_START, HIGHLIGHT_STOP, splitHighlight } from "./search";

/**
 * A user's call-room notes in the archive search: the same `websearch_to_tsquery('english', q)` over the notes'
 * stored `tsvector` (text and quote, `call_notes.search`), only the requesting user's rows.
 *
 * Notes hold no ticker or date of their own: the ticker, date and quarter filters apply through the note's call in
 * `archive_calls`, and the speaker and part-of-call filters through the note's sentence in `archive_segments` (the
 * one it highlights, or else the last one started at its moment). A filter leaves out a note whose call the archive
 * does not hold, since nothing says it matches.
 *
 * Notes are few per user (at most CALLROOM_NOTES_PER_USER, 5,000 by default), so the per-user rows are filtered without a ranking shortcut: the
 * GIN index finds the matches, the user filter and joins run on those.
 */

const MARKS = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}`;
/** Up to this many characters a note or quote is shown whole; a longer one (up to 5,000) as fragments around the matches. */
const WHOLE_MAX = 600;
const WHOLE = `${MARKS}, HighlightAll=true`;
const FRAGMENTS = `${MARKS}, MaxWords=40, MinWords=20, MaxFragments=2, FragmentDelimiter=" … "`;

function headline(column: SQL): SQL {
  return sql`CASE WHEN length(${column}) <= ${WHOLE_MAX} THEN ts_headline('english', ${column}, q.query, ${WHOLE})
              ELSE ts_headline('english', ${column}, q.query, ${FRAGMENTS}) END`;
}

interface NoteRow {
  id: number | string;
  call_id: string;
  at_ms: number;
  sequence: number | null;
  text_headline: string;
  quote_headline: string | null;
  created_at: string;
  symbol: string | null;
  name: string | null;
  title: string | null;
  quarter: string | null;
  start_time: string | null;
  status: NonNullable<SearchNote["call"]>["status"] | null;
}

type Row = { total: number | string; notes: NoteRow[] | string | null };

function filters(query: SearchQuery): SQL {
  const parts: SQL[] = [];
  if (query.tickers?.length)
    parts.push(
      sql`AND c.symbol IN (${sql.join(
        query.tickers.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  if (query.from) parts.push(sql`AND c.start_time >= ${query.from}::date`);
  // `to` is inclusive: the whole day, as for sentences.
  if (query.to) parts.push(sql`AND c.start_time < (${query.to}::date + 1)`);
  if (query.quarter) parts.push(sql`AND c.quarter = ${query.quarter}`);
  if (query.speaker) parts.push(sql`AND m.role = ${query.speaker}`);
  if (query.section) parts.push(sql`AND m.section = ${query.section}`);
  return sql.join(parts, sql` `);
}

export async function searchNotes(db: Db, userId: string, query: SearchQuery): Promise<SearchNotesResult> {
  const needsSentence = Boolean(query.speaker || query.section);
  const limit = query.page === 0 ? SEARCH_NOTES_LIMIT : 0;
  const [row] = await queryRows<Row>(
    db,
    sql`
    WITH q AS (SELECT websearch_to_tsquery('english', ${query.q}) AS query),
    matched AS MATERIALIZED (
      SELECT n.id, n.call_id, n.text, n.at_ms, n.sequence, n.quote, n.created_at,
             ts_rank_cd(n.search, q.query) AS rank,
             c.symbol, c.name, c.title, c.quarter, c.start_time, c.status
      FROM call_notes n CROSS JOIN q
      LEFT JOIN archive_calls c ON c.call_id = n.call_id
      ${
        needsSentence
          ? sql`LEFT JOIN LATERAL (
              SELECT s.role, s.section FROM archive_segments s
              WHERE s.call_id = n.call_id
                AND (s.sequence = n.sequence OR (n.sequence IS NULL AND s.start_ms <= n.at_ms))
              ORDER BY s.sequence DESC
              LIMIT 1
            ) m ON true`
          : sql``
      }
      WHERE n.user_id = ${userId} AND n.search @@ q.query ${filters(query)}
    ),
    page AS (
      SELECT * FROM matched ORDER BY rank DESC, created_at DESC, id DESC LIMIT ${limit}
    )
    SELECT
      (SELECT count(*)::int FROM matched) AS total,
      (SELECT json_agg(json_build_object(
          'id', p.id, 'call_id', p.call_id, 'at_ms', p.at_ms, 'sequence', p.sequence,
          'text_headline', ${headline(sql`p.text`)},
          'quote_headline', CASE WHEN p.quote IS NULL THEN NULL ELSE ${headline(sql`p.quote`)} END,
          'created_at', p.created_at, 'symbol', p.symbol, 'name', p.name, 'title', p.title,
          'quarter', p.quarter, 'start_time', p.start_time, 'status', p.status)
        ORDER BY p.rank DESC, p.created_at DESC, p.id DESC)
       FROM page p, q) AS notes
  `,
  );
  const raw = row?.notes ?? null;
  const rows: NoteRow[] = raw === null ? [] : typeof raw === "string" ? (JSON.parse(raw) as NoteRow[]) : raw;
  return {
    notes: rows.map(toSearchNote),
    totalNotes: Number(row?.total ?? 0),
  };
}

function toSearchNote(r: NoteRow): SearchNote {
  return {
    id: String(r.id),
    callId: r.call_id,
    atMs: r.at_ms,
    sequence: r.sequence,
    text: splitHighlight(r.text_headline),
    quote: r.quote_headline === null ? null : splitHighlight(r.quote_headline),
    createdAt: new Date(r.created_at).toISOString(),
    call:
      r.symbol !== null && r.start_time !== null && r.status !== null
        ? {
            symbol: r.symbol,
            name: r.name ?? r.symbol,
            title: r.title ?? r.symbol,
            quarter: r.quarter,
            startTime: new Date(r.start_time).toISOString(),
            status: r.status,
          }
        : null,
  };
}
