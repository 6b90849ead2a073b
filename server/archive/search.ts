import "server-only";
import { sql, type SQL } from "drizzle-orm";
import {
  SEARCH_PAGE_SIZE,
  type Facet,
  type SearchCall,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
} from "@/lib/schemas/search";
import { queryRows, type Db } from "../db/database";

/**
 * Full-text search over the archive: `websearch_to_tsquery` (so analysts type what they type into a search engine:
 * "quoted phrases", -exclusions, OR), the stored `tsvector` with its GIN index.
 *
 * Ranking: calls by how many of their sentences match (then the newest), sentences within a call by `ts_rank_cd`.
 * Ranking every hit by `ts_rank_cd` first cost three times the whole search for a common word (it reads every
 * matching sentence's tsvector; "revenue" matches ~7,000 sentences of the demo archive), and a call's hit count is
 * what an analyst scanning "who talked about this most" wants anyway. `ts_rank_cd` and `ts_headline` then run only
 * on the page's calls.
 *
 * One statement (one round trip) computes the page, the totals and both facets from one pass over the matching
 * sentences (counted per call), and says whether the query had any searchable word and which tickers the archive
 * knows.
 */

const HITS_PER_CALL = 3;
const FACET_LIMIT = 12;
/** Highlight markers: control characters, which stored text never holds (store.ts strips them). */
export const HIGHLIGHT_START = "\u0002";
export const HIGHLIGHT_STOP = "\u0003";
const START = HIGHLIGHT_START;
const STOP = HIGHLIGHT_STOP;
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, HighlightAll=true`;

/** A `ts_headline` marked with the control characters above → plain and matched parts (notes use it too). */
export function splitHighlight(headline: string): SearchHit["highlight"] {
  const parts: SearchHit["highlight"] = [];
  const re = new RegExp(`${START}([^${STOP}]*)${STOP}`, "g");
  let last = 0;
  for (const m of headline.matchAll(re)) {
    if (m.index > last) parts.push({ text: headline.slice(last, m.index), isMatch: false });
    if (m[1]) parts.push({ text: m[1], isMatch: true });
    last = m.index + m[0].length;
  }
  if (last < headline.length) parts.push({ text: headline.slice(last), isMatch: false });
  // A phrase comes back as marked words with plain spaces between them; it reads better as one mark.
  const merged: SearchHit["highlight"] = [];
  for (let i = 0; i < parts.length; i += 1) {
    const p = parts[i]!;
    const prev = merged.at(-1);
    const next = parts[i + 1];
    if (prev?.isMatch && !p.isMatch && /^\s+$/.test(p.text) && next?.isMatch) {
      prev.text += p.text + next.text;
      i += 1;
    } else if (prev?.isMatch && p.isMatch) {
      prev.text += p.text;
    } else {
      merged.push({ ...p });
    }
  }
  return merged;
}

type Row = {
  nodes: number | string;
  archived: number | string;
  known: string[] | string | null;
  total_calls: number | string;
  total_hits: number | string;
  calls: SearchCallRow[] | string | null;
  tickers: FacetRow[] | string | null;
  quarters: FacetRow[] | string | null;
};
interface SearchCallRow {
  call_id: string;
  symbol: string;
  name: string;
  title: string;
  quarter: string | null;
  start_time: string;
  status: SearchCall["status"];
  hit_count: number;
}
type HitRow = {
  call_id: string;
  sequence: number;
  start_ms: number;
  speaker: string;
  speaker_name: string | null;
  role: SearchHit["role"];
  section: SearchHit["section"];
  headline: string;
};
interface FacetRow {
  value: string;
  calls: number;
}

/** node-postgres parses json columns, PGlite too; a string means a driver that did not. */
function json<T>(value: T[] | string | null): T[] {
  if (value === null) return [];
  return typeof value === "string" ? (JSON.parse(value) as T[]) : value;
}

/**
 * The filters on the sentence itself (speaker, section): the page's calls were chosen with the others (ticker, dates,
 * quarter), which every sentence of a call shares, so repeating them made PostgreSQL intersect one more index for
 * nothing (docs/storage.md, "Search at library scale").
 */
function sentenceFilters(query: SearchQuery): SQL {
  return sql.join(
    [
      query.speaker ? sql`AND s.role = ${query.speaker}` : sql``,
      query.section ? sql`AND s.section = ${query.section}` : sql``,
    ],
    sql` `,
  );
}

/** The filters on a sentence's own copies of its call's ticker, start and quarter (`s`), or on the call's row (`c`). */
function filters(query: SearchQuery, on: "s" | "c" = "s"): SQL {
  const symbol = sql.raw(`${on}.symbol`);
  const start = sql.raw(on === "s" ? "s.call_start" : "c.start_time");
  const quarter = sql.raw(`${on}.quarter`);
  const parts: SQL[] = [];
  if (query.tickers?.length)
    parts.push(
      sql`AND ${symbol} IN (${sql.join(
        query.tickers.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  if (query.from) parts.push(sql`AND ${start} >= ${query.from}::date`);
  // `to` is inclusive: the whole day.
  if (query.to) parts.push(sql`AND ${start} < (${query.to}::date + 1)`);
  if (on === "s" && query.speaker) parts.push(sql`AND s.role = ${query.speaker}`);
  if (on === "s" && query.section) parts.push(sql`AND s.section = ${query.section}`);
  if (query.quarter) parts.push(sql`AND ${quarter} = ${query.quarter}`);
  return sql.join(parts, sql` `);
}

/**
 * The words of a query made only of words joined by OR ("margin", "tariffs OR margin"), as Postgres stems them, the
 * most frequent first (in how many calls it occurs); `null` for anything else (a phrase, AND, NOT), which only the
 * sentences themselves can answer. Read once per distinct query text: the parse is a function of the text alone
 * (one configuration, `english`), and the order only decides how fast a search runs, never what it finds.
 */
const LEXEME = /^'((?:[^'\\]|'')+)'$/;
const parsedWords = new Map<string, string[] | null>();
const PARSED_KEPT = 500;

async function wordsOf(db: Db, q: string): Promise<string[] | null> {
  const cached = parsedWords.get(q);
  if (cached !== undefined) return cached;
  // The parse and, for words joined by OR, each word's number of calls, in one round trip (a new query text cost
  // two: docs/storage.md, "Search at library scale").
  const [row] = await queryRows<{ text: string; counts: [string, number][] | string | null }>(
    db,
    sql`SELECT q.text, CASE WHEN q.text LIKE '% | %' THEN (
          SELECT json_agg(json_build_array(w.lexeme,
                   (SELECT count(*)::int FROM archive_call_terms t WHERE t.lexeme = w.lexeme)))
          FROM (SELECT replace(substring(part FROM ${LEXEME.source}), '''''', '''') AS lexeme
                FROM string_to_table(q.text, ' | ') AS part) w
          WHERE w.lexeme IS NOT NULL) END AS counts
        FROM (SELECT websearch_to_tsquery('english', ${q})::text AS text) q`,
  );
  let words: string[] | null = [];
  for (const part of (row?.text ?? "").split(" | ")) {
    const m = LEXEME.exec(part);
    if (!m) {
      words = null;
      break;
    }
    words.push(m[1]!.replace(/''/g, "'"));
  }
  if (words?.length === 0) words = null;
  if (words && words.length > 1) {
    const calls = new Map(json(row?.counts ?? null).map(([lexeme, n]) => [lexeme, Number(n)]));
    words = [...new Set(words)].sort(
      (a, b) => (calls.get(b) ?? 0) - (calls.get(a) ?? 0) || a.localeCompare(b),
    );
  }
  if (parsedWords.size >= PARSED_KEPT) parsedWords.delete(parsedWords.keys().next().value!);
  parsedWords.set(q, words);
  return words;
}

/** Stemmed words as a `tsquery` (each quoted as-is: cast, never parsed again by a configuration). */
const tsquery = (words: string[]) => words.map((w) => `'${w.replace(/'/g, "''")}'`).join(" | ");

/**
 * Matching sentences counted per call. For words joined by OR and no filter on the sentence itself (speaker,
 * section), the most frequent word's count per call comes from `archive_call_terms` (a row per call) and only the
 * sentences holding another word but not that one are visited; otherwise every matching sentence is.
 */
function perCall(query: SearchQuery, words: string[] | null): SQL {
  if (!words || query.speaker || query.section) {
    return sql`
      SELECT s.call_id, s.symbol, s.call_start, s.quarter, count(*)::int AS hit_count
      FROM archive_segments s, q
      WHERE s.search @@ q.query ${filters(query)}
      GROUP BY s.call_id, s.symbol, s.call_start, s.quarter`;
  }
  const [big, ...rest] = words;
  // Constants, not CTEs: the planner reads the word's frequency from the statistics and joins a rare word's few
  // calls by key instead of hashing every call.
  return sql`
      SELECT c.call_id, c.symbol, c.start_time AS call_start, c.quarter, sum(u.hits)::int AS hit_count
      FROM (
        SELECT t.call_id, t.hits FROM archive_call_terms t WHERE t.lexeme = ${big}
        ${
          rest.length
            ? sql`UNION ALL
        SELECT s.call_id, count(*)::int FROM archive_segments s
        WHERE s.search @@ ${tsquery(rest)}::tsquery AND NOT s.search @@ ${tsquery([big!])}::tsquery
        GROUP BY s.call_id`
            : sql``
        }
      ) u JOIN archive_calls c ON c.call_id = u.call_id
      WHERE TRUE ${filters(query, "c")}
      GROUP BY c.call_id, c.symbol, c.start_time, c.quarter`;
}

/**
 * The best sentences of the page's calls, by `ts_rank_cd`, with their highlights: a second statement, given the
 * page's call ids as values, so the planner sees them. It reads the page's matching sentences through the search
 * index and the calls' keys together (a sentence-by-sentence scan of ten whole calls cost more than all the rest of
 * a search once the counting no longer visited sentences).
 */
async function pageHits(db: Db, query: SearchQuery, calls: SearchCallRow[]): Promise<HitRow[]> {
  if (calls.length === 0) return [];
  const ids = sql.join(
    calls.map((c) => sql`${c.call_id}`),
    sql`, `,
  );
  const tsquery = sql`websearch_to_tsquery('english', ${query.q})`;
  return queryRows<HitRow>(
    db,
    sql`
    SELECT r.call_id, r.sequence, r.start_ms, r.speaker, r.speaker_name, r.role, r.section,
           ts_headline('english', r.text, ${tsquery}, ${HEADLINE_OPTIONS}) AS headline
    FROM (
      SELECT s.call_id, s.sequence, s.text, s.start_ms, s.speaker, s.speaker_name, s.role, s.section,
             row_number() OVER (PARTITION BY s.call_id ORDER BY ts_rank_cd(s.search, ${tsquery}) DESC, s.sequence) AS n
      FROM archive_segments s
      WHERE s.call_id IN (${ids}) AND s.search @@ ${tsquery} ${sentenceFilters(query)}
    ) r
    WHERE r.n <= ${HITS_PER_CALL}
    ORDER BY r.call_id, r.sequence`,
  );
}

export async function searchArchive(db: Db, query: SearchQuery): Promise<SearchResult> {
  const pageSize = SEARCH_PAGE_SIZE;
  const tickerList = query.tickers?.length
    ? sql.join(
        query.tickers.map((t) => sql`${t}`),
        sql`, `,
      )
    : null;
  const words = await wordsOf(db, query.q);
  const [row] = await queryRows<Row>(
    db,
    sql`
    WITH q AS (SELECT websearch_to_tsquery('english', ${query.q}) AS query),
    per_call AS MATERIALIZED (
      -- Each sentence carries its call's ticker, start and quarter: ranking, totals and both facets come from the
      -- matching sentences (or the per-call word counts) alone; the calls table is read for the page's ten calls.
      ${perCall(query, words)}
    ),
    page AS (
      SELECT p.call_id, p.hit_count, p.symbol, p.quarter, p.call_start AS start_time, c.name, c.title, c.status
      FROM (
        SELECT * FROM per_call
        ORDER BY hit_count DESC, call_start DESC, call_id
        LIMIT ${pageSize} OFFSET ${query.page * pageSize}
      ) p JOIN archive_calls c ON c.call_id = p.call_id
    )
    SELECT
      (SELECT numnode(query) FROM q) AS nodes,
      (SELECT count(*)::int FROM archive_calls) AS archived,
      ${
        tickerList
          ? sql`(SELECT json_agg(DISTINCT symbol) FROM archive_calls WHERE symbol IN (${tickerList}))`
          : sql`NULL::json`
      } AS known,
      (SELECT count(*)::int FROM per_call) AS total_calls,
      (SELECT coalesce(sum(hit_count), 0)::int FROM per_call) AS total_hits,
      (SELECT json_agg(json_build_object(
          'call_id', call_id, 'symbol', symbol, 'name', name, 'title', title, 'quarter', quarter,
          'start_time', start_time, 'status', status, 'hit_count', hit_count)
        ORDER BY hit_count DESC, start_time DESC, call_id) FROM page) AS calls,
      (SELECT json_agg(json_build_object('value', symbol, 'calls', n) ORDER BY n DESC, symbol)
       FROM (SELECT symbol, count(*)::int AS n FROM per_call GROUP BY symbol
             ORDER BY n DESC, symbol LIMIT ${FACET_LIMIT}) f) AS tickers,
      (SELECT json_agg(json_build_object('value', quarter, 'calls', n) ORDER BY quarter DESC)
       FROM (SELECT quarter, count(*)::int AS n FROM per_call WHERE quarter IS NOT NULL GROUP BY quarter
             ORDER BY quarter DESC LIMIT ${FACET_LIMIT}) f) AS quarters
  `,
  );
  const archivedCalls = Number(row?.archived ?? 0);
  const known = new Set(json<string>(row?.known ?? null));
  const unknownTickers = (query.tickers ?? []).filter((t) => !known.has(t));
  const empty = (notice: string | null): SearchResult => ({
    calls: [],
    totalCalls: 0,
    totalHits: 0,
    facets: { tickers: [], quarters: [] },
    page: query.page,
    pageSize,
    notice,
    unknownTickers,
    archivedCalls,
  });
  if (Number(row?.nodes ?? 0) === 0) {
    return empty(
      "Your search holds only very common words (like “the” or “and”), which the archive does not index. Add a more specific word.",
    );
  }
  if (query.tickers?.length && unknownTickers.length === query.tickers.length) {
    return empty(
      `The archive holds no call from ${unknownTickers.join(", ")}. Check the ticker, or search every company.`,
    );
  }
  const pageCalls = json<SearchCallRow>(row?.calls ?? null);
  const hitsByCall = new Map<string, SearchHit[]>();
  for (const h of await pageHits(db, query, pageCalls)) {
    const list = hitsByCall.get(h.call_id) ?? [];
    list.push({
      sequence: h.sequence,
      startMs: h.start_ms,
      speaker: h.speaker,
      speakerName: h.speaker_name,
      role: h.role,
      section: h.section,
      highlight: splitHighlight(h.headline),
    });
    hitsByCall.set(h.call_id, list);
  }
  const calls: SearchCall[] = pageCalls.map((c) => ({
    callId: c.call_id,
    symbol: c.symbol,
    name: c.name,
    title: c.title,
    quarter: c.quarter,
    startTime: new Date(c.start_time).toISOString(),
    status: c.status,
    hitCount: c.hit_count,
    hits: hitsByCall.get(c.call_id) ?? [],
  }));
  const toFacets = (rows: FacetRow[]): Facet[] => rows.map((f) => ({ value: f.value, calls: f.calls }));
  return {
    calls,
    totalCalls: Number(row?.total_calls ?? 0),
    totalHits: Number(row?.total_hits ?? 0),
    facets: {
      tickers: toFacets(json(row?.tickers ?? null)),
      quarters: toFacets(json(row?.quarters ?? null)),
    },
    page: query.page,
    pageSize,
    notice:
      unknownTickers.length > 0
        ? `The archive holds no call from ${unknownTickers.join(", ")}; showing the other tickers.`
        : null,
    unknownTickers,
    archivedCalls,
  };
}
