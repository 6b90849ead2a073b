/* eslint-disable @typescript-eslint/no-explicit-any -- untyped JSON bodies are what these tests inspect, field by field */
// Transcripts REST (docs/upstream.md §5): wrappers, validation, historical calls, summaries, signed media, control API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "../harness";
import { getJson, sleep, someTickers, startCall, until } from "./helpers";

let embedded: TestEmbedded;
let liveCallId: string;
let liveSymbol: string;

const calls = () => `${embedded.url}/api/v1/transcripts/calls`;

beforeAll(async () => {
  embedded = await startTestEmbedded({
    EMBEDDED_LIVE_CALLS: "0",
    EMBEDDED_ENRICH_SECONDS: "1",
    EMBEDDED_LINK_TTL_SECONDS: "2",
  });
  [liveSymbol = "NWSC"] = await someTickers(embedded.url, 1);
  liveCallId = await startCall(embedded.url, liveSymbol, 12);
}, 30_000);

afterAll(() => embedded.close());

async function expect400(url: string, fragment: string) {
  const { status, body } = await getJson(url);
  expect(status).toBe(400);
  expect(body).toEqual({
    ok: false,
    errors: [{ code: "bad_request", id: "invalid_parameter", value: expect.any(String) }],
  });
  expect(body.errors[0].value).toContain(fragment);
}

describe("list calls", () => {
  it("wraps data with message and 1-based pagination; historical calls are completed and enriched", async () => {
    const { status, body } = await getJson(`${calls()}?info_only=true&page_size=5`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["data", "message", "pagination"]);
    expect(body.message).toBe("Successfully fetched calls");
    expect(body.pagination).toEqual({
      hits: expect.any(Number),
      page: 1,
      page_count: Math.ceil(body.pagination.hits / 5),
      page_size: 5,
    });
    expect(body.pagination.hits).toBeGreaterThan(20);
    expect(body.data).toHaveLength(5);
    const starts = body.data.map((c: any) => Date.parse(c.start_time));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
    for (const call of body.data) {
      expect(call.call_id).toMatch(/^[0-9a-f]{24}$/);
      expect(call.status).toBe("COMPLETED");
      expect(call).not.toHaveProperty("transcripts");
      expect(call.summary).not.toBeNull();
      expect(call.participants.length).toBeGreaterThan(0);
      expect(Date.parse(call.start_time)).toBeGreaterThan(embedded.now() - 401 * 86_400_000);
    }
  });

  it("filters by status, symbol, from/to and sorts ascending", async () => {
    const live = await getJson(`${calls()}?status=IN_PROGRESS&info_only=true`);
    expect(live.body.data.every((c: any) => c.status !== "COMPLETED")).toBe(true);
    const all = await getJson(`${calls()}?status=ALL&info_only=true&page_size=100`);
    const one = all.body.data.find((c: any) => c.symbol !== liveSymbol) ?? all.body.data[0];
    const bySymbol = await getJson(`${calls()}?status=ALL&info_only=true&symbol=${one.symbol.toLowerCase()}`);
    expect(bySymbol.body.data.length).toBeGreaterThan(0);
    expect(bySymbol.body.data.every((c: any) => c.symbol === one.symbol)).toBe(true);
    const day = one.start_time.slice(0, 10);
    const ranged = await getJson(`${calls()}?info_only=true&page_size=100&from=${day}&to=${day}`);
    expect(ranged.body.data.every((c: any) => c.start_time.startsWith(day))).toBe(true);
    const asc = await getJson(`${calls()}?info_only=true&sort_by=start_time:asc&page_size=10`);
    const starts = asc.body.data.map((c: any) => Date.parse(c.start_time));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    const empty = await getJson(`${calls()}?symbol=ZZZZZ`);
    expect(empty.status).toBe(200);
    expect(empty.body.pagination).toEqual({ hits: 0, page: 1, page_count: 0, page_size: 10 });
  });

  it("rejects invalid parameters with a 400 naming the parameter", async () => {
    await expect400(`${calls()}?page=0`, "page");
    await expect400(`${calls()}?page_size=0`, "page_size");
    await expect400(`${calls()}?page_size=101`, "page_size");
    await expect400(`${calls()}?status=DONE`, "status");
    await expect400(`${calls()}?symbol=${Array.from({ length: 51 }, (_, i) => `A${i}`).join(",")}`, "symbol");
    await expect400(`${calls()}?from=yesterday`, "from");
    await expect400(`${calls()}?to=2026-13-45T99:00:00`, "to");
    await expect400(`${calls()}?from=2026-02-02&to=2026-01-01`, "from");
    await expect400(`${calls()}?sort_by=name`, "sort_by");
    await expect400(`${calls()}?info_only=yes`, "info_only");
  });

  it("needs the transcripts product", async () => {
    expect((await getJson(calls(), "demo-calendars")).status).toBe(403);
    expect((await getJson(calls(), "bogus")).status).toBe(401);
  });
});

describe("one call", () => {
  it("404s an unknown id and 400s a malformed one", async () => {
    const missing = await getJson(`${calls()}/${"0".repeat(24)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe("no_data_found");
    await expect400(`${calls()}/not.a.call.id`, "call_id");
    // Well-formed but not one of ours (the real service's ids are not all hex): unknown, not malformed.
    expect((await getJson(`${calls()}/not-a-call-id`)).status).toBe(404);
  });

  it("a historical call states the calendar's EPS and has LIVE and NON_LIVE transcripts that match", async () => {
    const list = await getJson(`${calls()}?info_only=true&page_size=1`);
    const meta = list.body.data[0];
    const { body } = await getJson(`${calls()}/${meta.call_id}`);
    expect(body.call_title).toBe(meta.call_title);
    expect(body.transcripts.map((t: any) => t.type)).toEqual(["LIVE", "NON_LIVE"]);
    const [live, final] = body.transcripts;
    expect(live.segments.length).toBe(final.segments.length);
    expect(live.segments.map((s: any) => s.segment_id)).toEqual(live.segments.map((_: any, i: number) => i));
    for (const s of live.segments) {
      expect(s.start_ms).toBeLessThan(s.end_ms);
      expect(s.start_time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
      expect(s.sentiment).toBeNull();
    }
    expect(Date.parse(body.end_time) - Date.parse(body.start_time)).toBe(body.duration * 1000);
    const calendar = await getJson(
      `${embedded.url}/api/v2.1/calendar/earnings?parameters[tickers]=${body.symbol}&pagesize=1000`,
    );
    const record = calendar.body.earnings.find(
      (r: any) => r.period === body.period && r.period_year === body.year && r.eps !== "",
    );
    const eps = Math.abs(Number(record.eps)).toFixed(2);
    expect(live.text).toContain(`$${eps}`);
  }, 30_000);
});

describe("summaries", () => {
  it("lists summaries with the wrapper and answers one; 404 until a live call is enriched", async () => {
    const { body } = await getJson(`${embedded.url}/api/v1/transcripts/summaries?page_size=3`);
    expect(body.message).toBe("Successfully fetched summaries");
    expect(body.data).toHaveLength(3);
    const first = body.data[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        "summary_id",
        "call_id",
        "transcript_id",
        "symbol",
        "summary",
        "sentiment",
        "language",
        "created_at",
        "updated_at",
      ].sort(),
    );
    const one = await getJson(`${embedded.url}/api/v1/transcripts/summaries/${first.call_id}`);
    expect(one.body).toEqual(first);
    // A call of its own, started now: the suite's shared call may be over and enriched by the time this runs.
    const freshCallId = await startCall(embedded.url, liveSymbol, 60);
    const live = await getJson(`${embedded.url}/api/v1/transcripts/summaries/${freshCallId}`);
    expect(live.status).toBe(404);
  });
});

describe("media and lifecycle of a short call", () => {
  it("publishes HLS, adds the MP3 at completion with range support, the PDF after enrichment; links expire", async () => {
    const enriched = await until(async () => {
      const r = await getJson(`${calls()}/${liveCallId}?audio=true&pdf=true`);
      return r.body.summary && r.body.pdf ? r.body : null;
    }, 60_000);
    expect(enriched.status).toBe("COMPLETED");
    const formats = enriched.recordings[0].formats;
    expect(formats.map((f: any) => [f.content_type, f.quality])).toEqual([
      ["application/vnd.apple.mpegurl", "720p"],
      ["audio/mpeg", "192kbps"],
    ]);
    const playlist = await fetch(formats[0].file_link);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get("content-type")).toContain("application/vnd.apple.mpegurl");
    const text = await playlist.text();
    expect(text).toContain("#EXT-X-ENDLIST");
    const segmentUri = text.split("\n").find((l) => l.startsWith("http"));
    expect(segmentUri).toMatch(/Signature=/);
    const segment = await fetch(segmentUri as string);
    expect(segment.status).toBe(200);
    expect((await segment.arrayBuffer()).byteLength).toBeGreaterThan(100);

    const mp3Link = formats[1].file_link as string;
    const whole = await fetch(mp3Link);
    const size = (await whole.arrayBuffer()).byteLength;
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    const part = await fetch(mp3Link, { headers: { range: "bytes=10-109" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-109/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    const tail = await fetch(mp3Link, { headers: { range: "bytes=-50" } });
    expect(tail.status).toBe(206);
    expect((await tail.arrayBuffer()).byteLength).toBe(50);
    const beyond = await fetch(mp3Link, { headers: { range: `bytes=${size + 10}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${size}`);

    const pdf = await fetch(enriched.pdf.file_link);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const forged = new URL(formats[0].file_link);
    forged.searchParams.set("Signature", "AAAA" + forged.searchParams.get("Signature")?.slice(4));
    const forgedResponse = await getJson(forged.toString());
    expect(forgedResponse.status).toBe(403);
    expect(forgedResponse.body.errors[0].value).toBe("Access denied");
    const otherCall = new URL(formats[0].file_link.replace(liveCallId, "0".repeat(24)));
    expect((await fetch(otherCall)).status).toBe(403);

    await sleep(2600);
    expect((await fetch(formats[0].file_link)).status).toBe(403);
    expect((await fetch(mp3Link)).status).toBe(403);
  }, 90_000);
});

describe("control API", () => {
  it("validates the body and ends calls", async () => {
    const bad = async (body: unknown) =>
      (
        await fetch(`${embedded.url}/__embedded/calls`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).status;
    expect(await bad({ symbol: "NOSUCHCO" })).toBe(400);
    expect(await bad({ symbol: liveSymbol, durationSeconds: 5 })).toBe(400);
    expect(await bad({ symbol: liveSymbol, durationSeconds: 7201 })).toBe(400);
    expect(await bad({})).toBe(400);
    const ended = await fetch(`${embedded.url}/__embedded/calls/${"0".repeat(24)}/end`, { method: "POST" });
    expect(ended.status).toBe(404);
  });
});
