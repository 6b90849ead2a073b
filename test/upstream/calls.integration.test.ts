/** `/api/calls*` and `/api/summaries` through our routes, against the embedded service over real sockets. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[callId]/route";
import { GET as getSummaryRoute } from "@/app/api/calls/[callId]/summary/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { GET as listSummariesRoute } from "@/app/api/summaries/route";
import type { Call, CallListResponse, CallSummary, SummaryListResponse } from "@/lib/schemas/calls";
import { QUIET_NOW, startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { getRuntime } from "@/server/runtime";
import { refreshRuntime } from "@/test/support/upstream-env";

const savedEnv = { ...process.env };

const ctx = <T>(params: T) => ({ params: Promise.resolve(params) });

async function list(query: string): Promise<{ status: number; body: CallListResponse }> {
  const res = await listCallsRoute(new Request(`http://app.test/api/calls?${query}`));
  return { status: res.status, body: (await res.json()) as CallListResponse };
}

// Both wire dialects (docs/upstream.md §8): the contract's shapes and the real service's documented ones.
describe.each(["contract", "documented"] as const)(
  "/api/calls over the embedded service (%s wire)",
  (wire) => {
    let embedded: TestEmbedded;

    beforeAll(async () => {
      // Exactly the two scheduled calls live: on a quiet Sunday no release call joins them (QUIET_NOW).
      embedded = await startTestEmbedded({
        EMBEDDED_LIVE_CALLS: "2",
        EMBEDDED_WIRE: wire,
        EMBEDDED_NOW: QUIET_NOW,
      });
      process.env.UPSTREAM_BASE_URL = embedded.url;
      process.env.UPSTREAM_WS_URL = embedded.wsUrl;
      process.env.UPSTREAM_API_KEY = embedded.key;
      // The embedded service builds an old call's transcript on first read (seconds on a busy CI machine).
      process.env.UPSTREAM_TIMEOUT_MS = "30000";
      refreshRuntime();
      // The scheduler starts its live calls shortly after boot.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const res = await fetch(
          `${embedded.url}/api/v1/transcripts/calls?status=IN_PROGRESS&info_only=true`,
          {
            headers: { authorization: `token ${embedded.key}` },
          },
        );
        const body = (await res.json()) as { data: unknown[] };
        if (body.data.length >= 2) break;
        if (Date.now() > deadline) throw new Error("the embedded service did not start its live calls");
        await new Promise((r) => setTimeout(r, 250));
      }
      getRuntime().upstream.cache.clear();
    });

    afterAll(async () => {
      await embedded?.close();
      process.env = savedEnv;
      refreshRuntime();
    });

    describe("calls", () => {
      it("lists live calls first, then completed ones, across pages without repeats", async () => {
        const first = await list("pageSize=3");
        expect(first.status).toBe(200);
        expect(first.body.data.slice(0, 2).map((c) => c.status)).toEqual(["live", "live"]);
        expect(first.body.data[2]!.status).not.toBe("live");
        expect(first.body.meta).toMatchObject({ page: 0, pageSize: 3, hasMore: true, stale: false });
        expect(first.body.meta.total).toBeGreaterThan(3);
        const second = await list("pageSize=3&page=1");
        const ids = [...first.body.data, ...second.body.data].map((c) => c.callId);
        expect(new Set(ids).size).toBe(6);
        expect(second.body.data.every((c) => c.status !== "live")).toBe(true);

        const live = await list("status=live");
        expect(live.body.data.map((c) => c.status)).toEqual(["live", "live"]);
        expect(live.body.data.every((c) => c.endTime === null)).toBe(true);
        const completed = await list("status=completed&pageSize=5");
        expect(completed.body.data.every((c) => c.status === "completed" || c.status === "enriched")).toBe(
          true,
        );
        expect(JSON.stringify([first.body, completed.body])).not.toMatch(/Signature|127\.0\.0\.1|file_link/);
      });

      it("filters by ticker", async () => {
        const { body } = await list("status=completed&pageSize=1");
        const symbol = body.data[0]!.symbol;
        const filtered = await list(`status=completed&tickers=${symbol.toLowerCase()}`);
        expect(filtered.body.data.length).toBeGreaterThan(0);
        expect(filtered.body.data.every((c) => c.symbol === symbol)).toBe(true);
      });

      it("answers 400 to bad queries", async () => {
        for (const q of [
          "status=done",
          "pageSize=0",
          "pageSize=101",
          "page=-1",
          "from=2026-13-01",
          "from=2026-02-02&to=2026-01-01",
        ]) {
          const res = await listCallsRoute(new Request(`http://app.test/api/calls?${q}`));
          expect(res.status, q).toBe(400);
        }
      });

      it("serves an enriched call with names, sentiment, summary and media flags, never a link", async () => {
        const { body } = await list("status=completed&pageSize=1");
        const callId = body.data[0]!.callId;
        const res = await getCallRoute(new Request(`http://app.test/api/calls/${callId}`), ctx({ callId }));
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toBe("no-store");
        const { data } = (await res.json()) as { data: Call };
        expect(data).toMatchObject({
          callId,
          status: "enriched",
          hasAudio: true,
          hasPdf: true,
          streamCursor: null,
        });
        // An old call's MP3 is prepared upstream on first demand, so it may not be servable yet; `hasMp3` only promises
        // what can be served (media-mp3-ready.integration.test.ts follows it until it is).
        expect(typeof data.hasMp3).toBe("boolean");
        expect(data.segments.length).toBeGreaterThan(5);
        expect(data.segments.map((s) => s.sequence)).toEqual(data.segments.map((_, i) => i));
        expect(data.segments.some((s) => s.speakerName !== null)).toBe(true);
        expect(data.segments.some((s) => s.sentiment !== null)).toBe(true);
        expect(data.summary?.points.length).toBeGreaterThan(0);
        expect(data.participants.length).toBeGreaterThan(0);
        expect(JSON.stringify(data)).not.toMatch(/Signature|Policy|Key-Pair-Id|127\.0\.0\.1|https?:/);

        const summary = await getSummaryRoute(
          new Request(`http://app.test/api/calls/${callId}/summary`),
          ctx({ callId }),
        );
        expect(summary.status).toBe(200);
        const s = ((await summary.json()) as { data: CallSummary }).data;
        expect(s).toMatchObject({ callId, symbol: data.symbol });
        expect(s.points).toEqual(data.summary!.points);
      });

      it("serves a live call with what was said so far and a stream cursor", async () => {
        const { body } = await list("status=live");
        const callId = body.data[0]!.callId;
        const res = await getCallRoute(new Request(`http://app.test/api/calls/${callId}`), ctx({ callId }));
        const { data } = (await res.json()) as { data: Call };
        expect(data.status).toBe("live");
        expect(data.streamCursor).not.toBeNull();
        expect(data.hasMp3).toBe(false);
        expect(data.summary).toBeNull();
        const summary = await getSummaryRoute(
          new Request(`http://app.test/api/calls/${callId}/summary`),
          ctx({ callId }),
        );
        expect(summary.status).toBe(404);
      });

      it("validates the call id: 400 for a malformed one, 404 for an unknown one", async () => {
        // Ids are 1-64 of [A-Za-z0-9_-] (the real service's are not always hex): anything else never reaches the upstream.
        for (const bad of ["../../etc/passwd", "a".repeat(65), "abc def", "x.y", ""]) {
          const res = await getCallRoute(new Request("http://app.test/api/calls/x"), ctx({ callId: bad }));
          expect(res.status, bad).toBe(400);
          const r2 = await getSummaryRoute(
            new Request("http://app.test/api/calls/x/summary"),
            ctx({ callId: bad }),
          );
          expect(r2.status, bad).toBe(400);
        }
        const unknown = "ffffffffffffffffffffffff";
        const res = await getCallRoute(
          new Request(`http://app.test/api/calls/${unknown}`),
          ctx({ callId: unknown }),
        );
        expect(res.status).toBe(404);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
        // A non-hex id passes our validation and is the service's to judge (the embedded one knows only hex ids).
        const other = await getCallRoute(
          new Request("http://app.test/api/calls/x"),
          ctx({ callId: "call_Not-Hex-42" }),
        );
        expect(other.status).not.toBe(400);
      });

      it("lists summaries newest first", async () => {
        const res = await listSummariesRoute(new Request("http://app.test/api/summaries?pageSize=5"));
        expect(res.status).toBe(200);
        const body = (await res.json()) as SummaryListResponse;
        expect(body.data.length).toBe(5);
        expect(body.data.every((s) => /^[0-9a-f]{24}$/.test(s.callId) && s.points.length > 0)).toBe(true);
        const created = body.data.map((s) => s.createdAt ?? "");
        expect(created).toEqual([...created].sort().reverse());
        expect(body.meta.total).toBeGreaterThanOrEqual(5);
      });
    });
  },
);
