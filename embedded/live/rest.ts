/**
 * Transcripts REST (docs/upstream.md §5), signed media routes and the live-call control routes (§7).
 *
 * Decisions where the contract is silent:
 * - An empty list is 200 with `data: []` and `hits: 0` (a filter that matches nothing is not an error for a list;
 *   404 stays for a call id or summary that does not exist).
 * - `status=IN_PROGRESS` selects every live call, including those still `STARTED`.
 * - `to` given as a date (`YYYY-MM-DD`) includes that whole day (UTC); `from` after `to` is a 400.
 * - Media 404s (playlist not published yet, audio of an old live run released) use the no-data envelope.
 * - Signed media answers (successes and errors alike) carry `Access-Control-Allow-Origin: *`, as a CDN serving
 *   signed URLs to browser players does: the signature is the access control, no cookie or key is involved, and a
 *   web player on another origin (hls.js fetching playlist and segments) must be able to read them. JSON routes
 *   stay without CORS: they need the API key, which belongs on a server, never in a browser.
 */
import { z } from "zod";
import { ApiError, badParameter, noDataFound } from "../core/api-error";
import type { EmbeddedRequest, EmbeddedResult, RouteDef } from "../core/types";
import type { CallEntry } from "./call-store";
import { callObject, summaryObject, type MediaLinks } from "./call-object";
import { MAX_REPLAYS, type LiveCalls } from "./live-calls";
import { loadTranscript, TranscriptRequestError } from "./replay/load";
import { CALL_ID_PATTERN } from "./ids";

const CALLS = "/api/v1/transcripts/calls";

export const accessDenied = () => new ApiError(403, "forbidden", "access_denied", "Access denied");

// ---------- query parsing

function intParam(q: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = q.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw badParameter(`${name} must be an integer between ${min} and ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw badParameter(`${name} must be between ${min} and ${max}`);
  return value;
}

function boolParam(q: URLSearchParams, name: string): boolean {
  const raw = q.get(name);
  if (raw === null || raw === "") return false;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw badParameter(`${name} must be true or false`);
}

function enumParam<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = q.get(name);
  if (raw === null || raw === "") return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw badParameter(`${name} must be one of ${allowed.join(", ")}`);
  return raw as T;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function timeParam(q: URLSearchParams, name: string, endOfDay: boolean): number | null {
  const raw = q.get(name);
  if (raw === null || raw === "") return null;
  const isDate = DATE_ONLY.test(raw);
  if (!isDate && !RFC3339.test(raw))
    throw badParameter(`${name} must be an RFC 3339 date-time or YYYY-MM-DD`);
  const ms = Date.parse(isDate ? `${raw}T00:00:00Z` : raw.replace(" ", "T"));
  if (Number.isNaN(ms)) throw badParameter(`${name} must be an RFC 3339 date-time or YYYY-MM-DD`);
  return isDate && endOfDay ? ms + 86_400_000 - 1 : ms;
}

function symbolsParam(q: URLSearchParams): Set<string> | null {
  const raw = q.get("symbol");
  if (raw === null || raw.trim() === "") return null;
  const list = raw
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== "");
  if (list.length > 50) throw badParameter("symbol accepts at most 50 comma-separated tickers");
  for (const s of list) {
    if (!/^[A-Z][A-Z0-9.-]{0,9}$/.test(s)) throw badParameter(`symbol contains an invalid ticker: ${s}`);
  }
  return new Set(list);
}

function callIdParam(req: EmbeddedRequest): string {
  const id = req.params.callId ?? "";
  // The real service's ids are not all hex (docs/upstream.md §5): a well-formed other id is simply unknown here.
  if (/^[A-Za-z0-9_-]{1,64}$/.test(id) && !CALL_ID_PATTERN.test(id)) throw noDataFound();
  if (!CALL_ID_PATTERN.test(id)) throw badParameter("call_id must be 24 hexadecimal characters");
  return id;
}

interface Page {
  page: number;
  pageSize: number;
}

function pageOf(q: URLSearchParams): Page {
  return { page: intParam(q, "page", 1, 1, 100_000), pageSize: intParam(q, "page_size", 10, 1, 100) };
}

function paginate<T>(items: readonly T[], { page, pageSize }: Page) {
  return {
    slice: items.slice((page - 1) * pageSize, page * pageSize),
    pagination: {
      hits: items.length,
      page,
      page_count: Math.ceil(items.length / pageSize),
      page_size: pageSize,
    },
  };
}

// ---------- media helpers

interface ByteRange {
  start: number;
  end: number;
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n`; only the first of several ranges is honoured. */
export function parseRange(header: string, size: number): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)(?:,.*)?$/.exec(header.trim());
  if (!match) return null;
  const [, a = "", b = ""] = match;
  if (a === "" && b === "") return null;
  let start: number;
  let end: number;
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

function rangedBody(req: EmbeddedRequest, bytes: Buffer, contentType: string): EmbeddedResult {
  const header = req.headers.range;
  const base = { "Accept-Ranges": "bytes", "Cache-Control": "private, max-age=300" };
  if (typeof header === "string") {
    const range = parseRange(header, bytes.length);
    if (range === "unsatisfiable") {
      return {
        status: 416,
        raw: "",
        contentType,
        headers: { ...base, "Content-Range": `bytes */${bytes.length}` },
      };
    }
    if (range) {
      return {
        status: 206,
        raw: bytes.subarray(range.start, range.end + 1),
        contentType,
        headers: { ...base, "Content-Range": `bytes ${range.start}-${range.end}/${bytes.length}` },
      };
    }
  }
  return { status: 200, raw: bytes, contentType, headers: base };
}

// ---------- routes

const MEDIA_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Content-Length, Content-Range, Accept-Ranges",
};

/** A signed media route whose answers (errors included) a player on any origin can read. */
function media(route: RouteDef): RouteDef {
  return {
    ...route,
    async handle(req) {
      try {
        const result = await route.handle(req);
        return { ...result, headers: { ...result.headers, ...MEDIA_CORS } };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        throw new ApiError(error.status, error.code, error.id, error.value, {
          ...error.headers,
          ...MEDIA_CORS,
        });
      }
    },
  };
}

const controlStartSchema = z.object({
  symbol: z.string().min(1).max(10),
  durationSeconds: z.number().int().min(10).max(7200).optional(),
});

const SPEED = "speed must be a number from 0.1 to 60 (times real time)";
const replaySchema = z.object({
  transcript: z.string({ error: "transcript must be a file name" }).min(1).max(200),
  speed: z.number({ error: SPEED }).min(0.1, SPEED).max(60, SPEED).default(1),
  audio: z.boolean({ error: "audio must be true or false" }).default(false),
});

const START_BODIES =
  "body must be {symbol, durationSeconds?} (a demo call) or {transcript, speed?, audio?} (a replay)";

/** `{transcript, speed?, audio?}`: a transcript file of EMBEDDED_TRANSCRIPTS_DIR played as a live call. */
async function startReplay(live: LiveCalls, body: Record<string, unknown>): Promise<EmbeddedResult> {
  const parsed = replaySchema.safeParse(body);
  if (!parsed.success) throw badParameter(parsed.error.issues[0]?.message ?? START_BODIES);
  if (!live.transcriptsDir)
    throw badParameter(
      "replay needs EMBEDDED_TRANSCRIPTS_DIR, the folder of transcript files, set at start-up",
    );
  if (live.liveReplays() >= MAX_REPLAYS)
    throw new ApiError(
      429,
      "rate_limited",
      "too_many_replays",
      `at most ${MAX_REPLAYS} replays are live at once`,
    );
  let file;
  try {
    file = await loadTranscript(live.transcriptsDir, parsed.data.transcript);
  } catch (error) {
    if (!(error instanceof TranscriptRequestError)) throw error;
    if (error.status === 404) throw new ApiError(404, "no_data_found", "not_found", error.message);
    throw badParameter(error.message);
  }
  const runtime = await live.startReplay(file, { speed: parsed.data.speed, audio: parsed.data.audio });
  return { body: { call_id: runtime.callId } };
}

export function liveRoutes(live: LiveCalls): RouteDef[] {
  const links = (callId: string): MediaLinks => ({
    hls: live.signedUrl(`${CALLS}/${callId}/hls`),
    mp3: live.signedUrl(`${CALLS}/${callId}/audio.mp3`),
    pdf: live.signedUrl(`${CALLS}/${callId}/transcript.pdf`),
  });

  const verify = (req: EmbeddedRequest) => {
    if (!live.verifyLink(req.path, req.query)) throw accessDenied();
  };

  const entryOrThrow = (req: EmbeddedRequest): CallEntry => {
    const entry = live.store.find(callIdParam(req), req.now.getTime());
    if (!entry) throw noDataFound();
    return entry;
  };

  const render = async (
    entry: CallEntry,
    nowMs: number,
    opts: { infoOnly: boolean; audio: boolean; pdf: boolean },
  ): Promise<Record<string, unknown>> => {
    const transcript = opts.infoOnly ? null : live.store.transcriptOf(entry);
    const enrichment = opts.infoOnly ? live.store.digestOf(entry) : live.store.enrichmentOf(entry);
    const audioRuntime = opts.audio ? await live.store.withAudio(entry) : null;
    return callObject(entry, {
      nowMs,
      infoOnly: opts.infoOnly,
      transcript,
      enrichment,
      recordings: opts.audio ? { runtime: audioRuntime, links: links(entry.callId) } : undefined,
      pdfLink: opts.pdf && enrichment ? links(entry.callId).pdf : undefined,
    });
  };

  return [
    {
      method: "GET",
      pattern: CALLS,
      product: "transcripts",
      async handle(req) {
        const q = req.query;
        const page = pageOf(q);
        const status = enumParam(q, "status", ["COMPLETED", "IN_PROGRESS", "ALL"] as const, "COMPLETED");
        const symbols = symbolsParam(q);
        const from = timeParam(q, "from", false);
        const to = timeParam(q, "to", true);
        if (from !== null && to !== null && from > to) throw badParameter("from must not be after to");
        const sort = enumParam(
          q,
          "sort_by",
          ["start_time", "start_time:desc", "start_time:asc"] as const,
          "start_time",
        );
        const infoOnly = boolParam(q, "info_only");
        const nowMs = req.now.getTime();
        const entries = live.store
          .all(nowMs)
          .filter((e) => {
            const completed = e.live ? e.live.status === "COMPLETED" : true;
            if (status === "COMPLETED" && !completed) return false;
            if (status === "IN_PROGRESS" && completed) return false;
            if (symbols && !symbols.has(e.company.symbol)) return false;
            const start = e.startTime.getTime();
            return (from === null || start >= from) && (to === null || start <= to);
          })
          .sort((a, b) =>
            sort === "start_time:asc"
              ? a.startTime.getTime() - b.startTime.getTime() || a.callId.localeCompare(b.callId)
              : b.startTime.getTime() - a.startTime.getTime() || a.callId.localeCompare(b.callId),
          );
        const { slice, pagination } = paginate(entries, page);
        const data = [];
        for (const entry of slice)
          data.push(await render(entry, nowMs, { infoOnly, audio: false, pdf: false }));
        return { body: { data, message: "Successfully fetched calls", pagination } };
      },
    },
    {
      method: "GET",
      pattern: `${CALLS}/:callId`,
      product: "transcripts",
      async handle(req) {
        const audio = boolParam(req.query, "audio");
        const pdf = boolParam(req.query, "pdf");
        const entry = entryOrThrow(req);
        return { body: await render(entry, req.now.getTime(), { infoOnly: false, audio, pdf }) };
      },
    },
    {
      method: "GET",
      pattern: "/api/v1/transcripts/summaries",
      product: "transcripts",
      handle(req) {
        const q = req.query;
        const page = pageOf(q);
        const symbols = symbolsParam(q);
        const from = timeParam(q, "from", false);
        const to = timeParam(q, "to", true);
        if (from !== null && to !== null && from > to) throw badParameter("from must not be after to");
        const sort = enumParam(
          q,
          "sort_by",
          ["created_at", "created_at:desc", "created_at:asc"] as const,
          "created_at",
        );
        const nowMs = req.now.getTime();
        // Sorted and paged on the enrichment time, which a historical call knows without being enriched: only
        // the page's summaries are computed.
        const enrichedAt = (e: CallEntry): number | null =>
          e.live
            ? (e.live.enrichment?.enrichedAt.getTime() ?? null)
            : e.startTime.getTime() + e.plannedSeconds * 1000 + live.enrichDelayMs;
        const rows = live.store
          .all(nowMs)
          .filter((e) => {
            if (symbols && !symbols.has(e.company.symbol)) return false;
            const start = e.startTime.getTime();
            return (from === null || start >= from) && (to === null || start <= to);
          })
          .flatMap((e) => {
            const at = enrichedAt(e);
            return at === null ? [] : [{ e, at }];
          })
          .sort(
            (a, b) =>
              (sort === "created_at:asc" ? a.at - b.at : b.at - a.at) || a.e.callId.localeCompare(b.e.callId),
          );
        const { slice: pageRows, pagination } = paginate(rows, page);
        const slice = pageRows.map(({ e }) => {
          const enrichment = live.store.digestOf(e);
          return summaryObject(e, enrichment as NonNullable<typeof enrichment>);
        });
        return { body: { data: slice, message: "Successfully fetched summaries", pagination } };
      },
    },
    {
      method: "GET",
      pattern: "/api/v1/transcripts/summaries/:callId",
      product: "transcripts",
      handle(req) {
        const entry = entryOrThrow(req);
        const enrichment = live.store.digestOf(entry);
        if (!enrichment) throw noDataFound();
        return { body: summaryObject(entry, enrichment) };
      },
    },
    // ---- signed media
    media({
      method: "GET",
      pattern: `${CALLS}/:callId/hls`,
      product: null,
      signed: true,
      async handle(req) {
        verify(req);
        const runtime = await live.store.withAudio(entryOrThrow(req));
        const track = runtime?.track;
        if (!runtime || !track || !runtime.playlistPublished) throw noDataFound();
        const id = runtime.callId;
        return {
          raw: track.playlist((index) => live.signedUrl(`${CALLS}/${id}/hls/${index}.mp3`)),
          contentType: "application/vnd.apple.mpegurl",
          headers: { "Cache-Control": "no-cache" },
        };
      },
    }),
    media({
      method: "GET",
      pattern: `${CALLS}/:callId/hls/:segment`,
      product: null,
      signed: true,
      async handle(req) {
        verify(req);
        const match = /^(\d{1,6})\.mp3$/.exec(req.params.segment ?? "");
        if (!match) throw noDataFound();
        const runtime = await live.store.withAudio(entryOrThrow(req));
        const bytes = runtime?.track?.segment(Number(match[1]));
        if (!bytes) throw noDataFound();
        return {
          raw: bytes,
          contentType: "audio/mpeg",
          headers: { "Cache-Control": "private, max-age=3600" },
        };
      },
    }),
    media({
      method: "GET",
      pattern: `${CALLS}/:callId/audio.mp3`,
      product: null,
      signed: true,
      async handle(req) {
        verify(req);
        const runtime = await live.store.withAudio(entryOrThrow(req));
        const track = runtime?.track;
        if (!runtime || !track || !track.isFinished || runtime.status !== "COMPLETED") throw noDataFound();
        return rangedBody(req, track.mp3(), "audio/mpeg");
      },
    }),
    media({
      method: "GET",
      pattern: `${CALLS}/:callId/transcript.pdf`,
      product: null,
      signed: true,
      async handle(req) {
        verify(req);
        const entry = entryOrThrow(req);
        const pdf = await live.pdf(entry);
        if (!pdf) throw noDataFound();
        return rangedBody(req, pdf, "application/pdf");
      },
    }),
    // ---- control API
    {
      method: "POST",
      pattern: "/__embedded/calls",
      product: null,
      async handle(req) {
        const body = (typeof req.body === "object" && req.body !== null ? req.body : {}) as Record<
          string,
          unknown
        >;
        if ("transcript" in body && "symbol" in body)
          throw badParameter(`send either of them: ${START_BODIES}`);
        if ("transcript" in body || !("symbol" in body)) {
          if (!("transcript" in body)) throw badParameter(START_BODIES);
          return startReplay(live, body);
        }
        const parsed = controlStartSchema.safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const field = String(issue?.path[0] ?? "body");
          throw badParameter(
            field === "durationSeconds"
              ? "durationSeconds must be an integer between 10 and 7200"
              : field === "symbol"
                ? "symbol is required"
                : "body must be {symbol, durationSeconds?}",
          );
        }
        const company = live.universe.findCompany(parsed.data.symbol);
        if (!company) throw badParameter(`symbol must be a known ticker: ${parsed.data.symbol}`);
        const runtime = await live.startControlCall(company, parsed.data.durationSeconds);
        return { body: { call_id: runtime.callId } };
      },
    },
    {
      method: "POST",
      pattern: "/__embedded/calls/:callId/end",
      product: null,
      handle(req) {
        const id = callIdParam(req);
        const runtime = live.store.liveRuntimes().find((r) => r.callId === id);
        if (!runtime) throw noDataFound();
        runtime.requestEnd();
        return { body: { call_id: id, status: runtime.status } };
      },
    },
  ];
}
