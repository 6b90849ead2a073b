/**
 * The media proxy against the embedded service's real signed HLS, MP3 and PDF (over sockets, through our routes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getMp3 } from "@/app/api/calls/[callId]/audio.mp3/route";
import { GET as getPlaylist } from "@/app/api/calls/[callId]/audio/playlist.m3u8/route";
import { GET as getSegment } from "@/app/api/calls/[callId]/audio/segments/[segment]/route";
import { GET as getPdf } from "@/app/api/calls/[callId]/transcript.pdf/route";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { MediaProxy } from "@/server/upstream/media";
import { refreshRuntime } from "@/test/support/upstream-env";

let embedded: TestEmbedded;
let proxy: MediaProxy;
const upstreamMediaPaths: string[] = [];
const savedEnv = { ...process.env };

beforeAll(async () => {
  embedded = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0", EMBEDDED_ENRICH_SECONDS: "1" });
  process.env.UPSTREAM_BASE_URL = embedded.url;
  process.env.UPSTREAM_WS_URL = embedded.wsUrl;
  process.env.UPSTREAM_API_KEY = embedded.key;
  // Counts what really goes over the wire to the upstream (signed media routes are not in its request stats).
  refreshRuntime({
    media: (defaults) => {
      proxy = new MediaProxy({
        ...defaults,
        fetch: (input, init) => {
          const url = input instanceof Request ? input.url : String(input);
          upstreamMediaPaths.push(new URL(url).pathname);
          return fetch(input, init);
        },
      });
      return proxy;
    },
  });
});

afterAll(async () => {
  await embedded?.close();
  process.env = savedEnv;
  refreshRuntime();
});

const ctx = <T>(params: T) => ({ params: Promise.resolve(params) });

async function eventually<T>(fn: () => Promise<T | null>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("media proxy over the embedded service", () => {
  it("rewrites the live playlist, shares segment fetches, and serves MP3 ranges and the PDF after the call", async () => {
    const cal = (await (
      await fetch(`${embedded.url}/api/v2.1/calendar/earnings?pagesize=1`, {
        headers: { authorization: `token ${embedded.key}` },
      })
    ).json()) as { earnings: { ticker: string }[] };
    const started = await fetch(`${embedded.url}/__embedded/calls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ symbol: cal.earnings[0]!.ticker, durationSeconds: 14 }),
    });
    const callId = ((await started.json()) as { call_id: string }).call_id.toLowerCase();

    // Live: the playlist appears once it holds a segment; our copy names only our own paths.
    const playlist = await eventually(
      async () => {
        const res = await getPlaylist(
          new Request(`http://app.test/api/calls/${callId}/audio/playlist.m3u8`),
          ctx({ callId }),
        );
        if (res.status !== 200) return null;
        const text = await res.text();
        return /segments\/1\.\w+/.test(text) ? text : null;
      },
      30_000,
      "a live playlist with two segments",
    );
    expect(playlist).toMatch(/^#EXTM3U/);
    for (const leak of ["127.0.0.1", "Signature", "Policy", "Key-Pair-Id", "/api/v1/", "http"]) {
      expect(playlist).not.toContain(leak);
    }
    const first = /^(segments\/0\.(\w+))$/m.exec(playlist)!;
    const segment = first[1]!.slice("segments/".length);

    // A thousand listeners, one upstream read of the segment.
    const readsBefore = upstreamMediaPaths.length;
    const responses = await Promise.all(
      Array.from({ length: 1000 }, () =>
        getSegment(
          new Request(`http://app.test/api/calls/${callId}/audio/segments/${segment}`),
          ctx({ callId, segment }),
        ),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(new Set(bodies.map((b) => b.byteLength)).size).toBe(1);
    expect(bodies[0]!.byteLength).toBeGreaterThan(100);
    const segmentReads = upstreamMediaPaths.slice(readsBefore).filter((p) => !p.endsWith("/hls"));
    expect(segmentReads).toHaveLength(1);
    expect(segmentReads[0]).toContain(`/calls/${callId}/hls/`);
    expect(proxy.stats().segmentFetches).toBe(1);

    // After the end: the MP3, by ranges.
    const range = await eventually(
      async () => {
        const res = await getMp3(
          new Request(`http://app.test/api/calls/${callId}/audio.mp3`, { headers: { range: "bytes=0-99" } }),
          ctx({ callId }),
        );
        // 404 while live; 503 recording_not_ready in the moment between the end and the MP3's listing.
        if (res.status === 404 || res.status === 503) return null;
        return res;
      },
      60_000,
      "the MP3",
    );
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toMatch(/^bytes 0-99\/\d+$/);
    const head = Buffer.from(await range.arrayBuffer());
    expect(head.byteLength).toBe(100);
    const whole = await getMp3(new Request(`http://app.test/api/calls/${callId}/audio.mp3`), ctx({ callId }));
    expect(whole.status).toBe(200);
    const all = Buffer.from(await whole.arrayBuffer());
    expect(all.subarray(0, 100)).toEqual(head);
    const total = Number(range.headers.get("content-range")!.split("/")[1]);
    expect(all.byteLength).toBe(total);

    // After enrichment: the PDF.
    const pdf = await eventually(
      async () => {
        const res = await getPdf(
          new Request(`http://app.test/api/calls/${callId}/transcript.pdf`),
          ctx({ callId }),
        );
        return res.status === 404 ? null : res;
      },
      60_000,
      "the PDF",
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toMatch(/application\/pdf/);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    // The sealed playlist.
    const sealed = await getPlaylist(
      new Request(`http://app.test/api/calls/${callId}/audio/playlist.m3u8`),
      ctx({ callId }),
    );
    expect(await sealed.text()).toContain("#EXT-X-ENDLIST");
  }, 150_000);
});
