/**
 * `GET /api/search`: full-text search over the transcript archive (every stored call, live ones included).
 *
 * Query: `q` (web-search syntax: "quoted phrase", -exclude, OR), `tickers` (comma-separated), `from`/`to`
 * (YYYY-MM-DD, on the call's start, inclusive), `speaker` (executive | analyst | operator), `section`
 * (prepared | qa), `quarter` ("2026-Q3", the quarter facet's values), `page` (0-based; a page holds `pageSize` calls). Results are grouped by call, best call first,
 * each with its hit count and its best sentences; facets count matching calls by ticker and by quarter. The
 * requesting user's own notes that match come beside them (`notes`, on the first page), under the filters the notes'
 * data allows (see `searchNoteSchema`).
 */
import { z } from "zod";
import { isValidIsoDate } from "./iso-date";
import { enumParam, intParam, symbolListParam } from "./params";

import {
  SEARCH_OR_BRANCHES_MAX,
  SEARCH_PAGE_SIZE,
  SEARCH_QUERY_MAX,
  searchOrBranches,
  callSections,
  speakerRoles,
  type CallSection,
  type SpeakerRole,
} from "./search-values";

export {
  SEARCH_OR_BRANCHES_MAX,
  SEARCH_PAGE_SIZE,
  SEARCH_QUERY_MAX,
  callSections,
  speakerRoles,
  type CallSection,
  type SpeakerRole,
};

const searchDate = (name: string) =>
  z.string().refine(isValidIsoDate, { message: `${name} must be a date in the form YYYY-MM-DD` });

export const searchQuerySchema = z
  .object({
    q: z
      .string({ message: "q is required: type what to search for" })
      .trim()
      .min(1, { message: "q is required: type what to search for" })
      .max(SEARCH_QUERY_MAX, {
        message: `q is too long (at most ${SEARCH_QUERY_MAX} characters): search for the key words`,
      })
      .refine((q) => searchOrBranches(q) <= SEARCH_OR_BRANCHES_MAX, {
        message: `q joins too many alternatives with OR (at most ${SEARCH_OR_BRANCHES_MAX}): split it into several searches`,
      }),
    tickers: symbolListParam("tickers", 20).optional(),
    from: searchDate("from").optional(),
    to: searchDate("to").optional(),
    speaker: enumParam("speaker", speakerRoles).optional(),
    section: enumParam("section", callSections).optional(),
    /** A fiscal quarter as the quarter facet names it ("2026-Q3"). */
    quarter: z
      .string()
      .regex(/^\d{4}-Q[1-4]$/, { message: "quarter must look like 2026-Q3" })
      .optional(),
    page: intParam("page", 0, 500).default(0),
  })
  .superRefine((v, ctx) => {
    if (v.from !== undefined && v.to !== undefined && v.from > v.to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "from must be on or before to" });
    }
  });
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Text split into plain and matched parts (never HTML). */
export const highlightSchema = z.array(z.object({ text: z.string(), isMatch: z.boolean() }));
export type Highlight = z.infer<typeof highlightSchema>;

/**
 * A matching sentence. `highlight` is the sentence split into plain and matched parts (never HTML): the page wraps
 * the matched ones in `<mark>`.
 */
export const searchHitSchema = z.object({
  sequence: z.number().int().nonnegative(),
  startMs: z.number(),
  speaker: z.string(),
  speakerName: z.string().nullable(),
  role: z.enum(speakerRoles).nullable(),
  section: z.enum(callSections),
  highlight: highlightSchema,
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchCallSchema = z.object({
  callId: z.string(),
  symbol: z.string(),
  name: z.string(),
  title: z.string(),
  /** "2026-Q3"; null when the upstream gave no period. */
  quarter: z.string().nullable(),
  startTime: z.string(),
  status: z.enum(["live", "completed", "enriched"]),
  /** Matching sentences in the call. */
  hitCount: z.number().int().nonnegative(),
  /** The best few, in transcript order. */
  hits: z.array(searchHitSchema),
});
export type SearchCall = z.infer<typeof searchCallSchema>;

export const facetSchema = z.object({ value: z.string(), calls: z.number().int().nonnegative() });
export type Facet = z.infer<typeof facetSchema>;

export const searchResultSchema = z.object({
  calls: z.array(searchCallSchema),
  totalCalls: z.number().int().nonnegative(),
  totalHits: z.number().int().nonnegative(),
  facets: z.object({ tickers: z.array(facetSchema), quarters: z.array(facetSchema) }),
  page: z.number().int().nonnegative(),
  pageSize: z.number().int().positive(),
  /**
   * Why the result is empty when it is not for want of matches: the query held only common words, or the tickers
   * are not in the archive. `null` otherwise.
   */
  notice: z.string().nullable(),
  /** Requested tickers of which the archive holds no call. */
  unknownTickers: z.array(z.string()),
  /** Calls in the archive when the search ran (so an empty archive says so). */
  archivedCalls: z.number().int().nonnegative(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** Notes per answer: a user's matching notes beyond these are counted (`totalNotes`), and a filter narrows them. */
export const SEARCH_NOTES_LIMIT = 20;

/**
 * One of the requesting user's call-room notes that matches the query (in its text or in the sentence it quotes).
 * Ticker, date and quarter filters apply through the note's call; speaker and part-of-call filters through the
 * sentence the note highlights, or else the one being spoken at its moment. A note whose call is not in the archive
 * has `call: null` and is left out by any filter.
 */
export const searchNoteSchema = z.object({
  id: z.string(),
  callId: z.string(),
  /** The moment the note is pinned to, from the call's start. */
  atMs: z.number().int().nonnegative(),
  /** The highlighted sentence, when the note highlights one. */
  sequence: z.number().int().nonnegative().nullable(),
  /** The note's text (a fragment around the matches when long). */
  text: highlightSchema,
  /** The highlighted sentence as the note quotes it. */
  quote: highlightSchema.nullable(),
  createdAt: z.string(),
  call: z
    .object({
      symbol: z.string(),
      name: z.string(),
      title: z.string(),
      quarter: z.string().nullable(),
      startTime: z.string(),
      status: z.enum(["live", "completed", "enriched"]),
    })
    .nullable(),
});
export type SearchNote = z.infer<typeof searchNoteSchema>;

export const searchNotesResultSchema = z.object({
  /** Best first; only on the first page (`[]` on the others). */
  notes: z.array(searchNoteSchema),
  totalNotes: z.number().int().nonnegative(),
});
export type SearchNotesResult = z.infer<typeof searchNotesResultSchema>;

/** What `GET /api/search` answers: the archive's page and the user's matching notes. */
export const searchAnswerSchema = searchResultSchema.extend(searchNotesResultSchema.shape);
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

/** `GET /api/search` → `{ data: SearchResult, meta }`. */
export const searchResponseSchema = z.object({
  data: searchAnswerSchema,
  meta: z.object({ fetchedAt: z.string(), stale: z.boolean(), tookMs: z.number() }),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
