/**
 * Calls in the documented dialect (docs/upstream.md §8), rewritten from the contract's call object:
 * - `call_title` is an AI-style headline and `headline` a longer one; the formal title ("Q3 2026 … Earnings
 *   Conference Call") is in `description`; there is no `period` or `year`;
 * - `audio=true` answers one `recording` (not `recordings[]`) whose `file_link`s are relative to the base URL;
 * - segment `start_time`/`end_time` are millisecond offsets as strings, without `start_ms`/`end_ms`;
 * - `duration` is in minutes.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Deterministic stand-ins for the service's generated headlines: what the call covers, never invented figures. */
function headlines(call: Obj): { short: string; long: string } {
  const name = typeof call.name === "string" && call.name !== "" ? call.name : String(call.symbol ?? "");
  const when = [call.period, call.year].filter((p) => p !== null && p !== undefined && p !== "").join(" ");
  const what = when === "" ? "quarterly results" : `${when} results`;
  return {
    short: `${name} walks through ${what} and outlook`,
    long: `${name} reviews ${what}, takes analysts' questions and updates its outlook.`,
  };
}

function relativeTo(link: unknown, baseUrl: string): unknown {
  if (typeof link !== "string") return link;
  const prefix = `${baseUrl.replace(/\/+$/, "")}/`;
  return link.startsWith(prefix) ? link.slice(prefix.length) : link;
}

function recording(recordings: unknown, baseUrl: string): Obj | undefined {
  const first = Array.isArray(recordings)
    ? recordings.find(isObj)
    : isObj(recordings)
      ? recordings
      : undefined;
  if (!first) return undefined;
  const formats = Array.isArray(first.formats) ? first.formats.filter(isObj) : [];
  return { ...first, formats: formats.map((f) => ({ ...f, file_link: relativeTo(f.file_link, baseUrl) })) };
}

function segment(raw: unknown): unknown {
  if (!isObj(raw)) return raw;
  const { start_ms, end_ms, ...rest } = raw;
  return {
    ...rest,
    start_time: typeof start_ms === "number" ? String(start_ms) : rest.start_time,
    end_time: typeof end_ms === "number" ? String(end_ms) : rest.end_time,
  };
}

export function documentedCall(body: unknown, baseUrl: string): unknown {
  if (!isObj(body) || typeof body.call_id !== "string") return body;
  const { period: _period, year: _year, recordings, call_title, ...rest } = body;
  const { short, long } = headlines(body);
  const out: Obj = { ...rest, call_title: short, headline: long, description: call_title };
  if (typeof rest.duration === "number") out.duration = Math.round(rest.duration / 60);
  if (Array.isArray(rest.transcripts)) {
    out.transcripts = rest.transcripts.map((t) =>
      isObj(t) && Array.isArray(t.segments) ? { ...t, segments: t.segments.map(segment) } : t,
    );
  }
  if (recordings !== undefined) {
    const single = recording(recordings, baseUrl);
    if (single) out.recording = single;
  }
  return out;
}

export function documentedCallList(body: unknown, baseUrl: string): unknown {
  if (!isObj(body) || !Array.isArray(body.data)) return body;
  return { ...body, data: body.data.map((call) => documentedCall(call, baseUrl)) };
}
