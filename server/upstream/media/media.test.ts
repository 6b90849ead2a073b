import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getMp3 } from "@/app/api/calls/[callId]/audio.mp3/route";
import { GET as getPlaylist } from "@/app/api/calls/[callId]/audio/playlist.m3u8/route";
import { GET as getSegment } from "@/app/api/calls/[callId]/audio/segments/[segment]/route";
import type { MediaLinks } from "../calls";
import { CircuitBreaker, DEFAULT_BREAKER_OPTIONS } from "../../security/circuit-breaker";
import { linkExpiry, MediaProxy, rewritePlaylist } from ".";
import { useMediaProxy } from "@/test/support/upstream-env";

const ID = "0123456789abcdef01234567";
const MP3 = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

/** A stand-in upstream: signed links are valid for the current generation only (bumping it = expiry). */
let server: Server;
let origin = "";
let generation = 1;
let ended = false;
const hits = { playlist: 0, segment: new Map<number, number>(), mp3: 0, forbidden: 0 };

function signed(path: string) {
  return `${origin}${path}?Key-Pair-Id=K&Policy=${Buffer.from(JSON.stringify({ expires: 4_000_000_000 })).toString("base64url")}&Signature=g${generation}`;
}

function links(): MediaLinks {
  return {
    hls: signed(`/api/v1/transcripts/calls/${ID}/hls`),
    mp3: signed(`/api/v1/transcripts/calls/${ID}/mp3`),
    pdf: null,
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (url.searchParams.get("Signature") !== `g${generation}`) {
      hits.forbidden += 1;
      res.writeHead(403, { "content-type": "application/json" }).end('{"message":"Access denied"}');
      return;
    }
    if (url.pathname.endsWith("/hls")) {
      hits.playlist += 1;
      const q = url.search;
      const body = [
        "#EXTM3U",
        "#EXT-X-VERSION:3",
        "#EXT-X-TARGETDURATION:2",
        "#EXT-X-MEDIA-SEQUENCE:0",
        "#EXT-X-PLAYLIST-TYPE:EVENT",
        '#EXT-X-SESSION-DATA:DATA-ID="x",URI="https://elsewhere.example/data.json"',
        "#EXTINF:2.0,",
        `hls/0.mp3${q}`,
        "#EXTINF:2.0,",
        `${origin}/api/v1/transcripts/calls/${ID}/hls/1.mp3${q}`,
        "#EXTINF:2.0,",
        `/api/v1/transcripts/calls/${ID}/hls/2.mp3${q}`,
        ...(ended ? ["#EXT-X-ENDLIST"] : []),
      ];
      res.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" }).end(body.join("\n"));
      return;
    }
    const seg = /\/hls\/(\d+)\.mp3$/.exec(url.pathname);
    if (seg) {
      const n = Number(seg[1]);
      hits.segment.set(n, (hits.segment.get(n) ?? 0) + 1);
      // Slow enough that concurrent listeners overlap.
      setTimeout(() => res.writeHead(200, { "content-type": "audio/mpeg" }).end(Buffer.alloc(4000, n)), 30);
      return;
    }
    if (url.pathname.endsWith("/mp3")) {
      hits.mp3 += 1;
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Number(range[2]) : MP3.length - 1;
        if (start >= MP3.length) {
          res.writeHead(416, { "content-range": `bytes */${MP3.length}` }).end();
          return;
        }
        res
          .writeHead(206, {
            "content-type": "audio/mpeg",
            "content-range": `bytes ${start}-${end}/${MP3.length}`,
            "content-length": String(end - start + 1),
            "accept-ranges": "bytes",
          })
          .end(MP3.subarray(start, end + 1));
        return;
      }
      res.writeHead(200, { "content-type": "audio/mpeg", "accept-ranges": "bytes" }).end(MP3);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let linkCalls = 0;
function makeProxy(overrides: Partial<ConstructorParameters<typeof MediaProxy>[0]> = {}) {
  return new MediaProxy({
    allowedOrigin: () => origin,
    fetchLinks: async () => {
      linkCalls += 1;
      return links();
    },
    ...overrides,
  });
}

beforeEach(() => {
  generation = 1;
  ended = false;
  linkCalls = 0;
  hits.playlist = 0;
  hits.segment.clear();
  hits.mp3 = 0;
  hits.forbidden = 0;
});

function ctx<T>(params: T) {
  return { params: Promise.resolve(params) };
}

describe("rewritePlaylist", () => {
  it("numbers segments from the media sequence and drops URI-bearing tags", () => {
    const text = [
      "#EXTM3U",
      "#EXT-X-MEDIA-SEQUENCE:7",
      '#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k"',
      "#EXT-X-KEY:METHOD=NONE",
      "#EXTINF:2,",
      "a.ts?sig=1",
      "#EXTINF:2,",
      "b.aac?sig=1",
      "#EXT-X-ENDLIST",
    ].join("\r\n");
    const r = rewritePlaylist(text, "http://up.example/p/hls?sig=1", "http://up.example");
    expect(r.text).toBe(
      [
        "#EXTM3U",
        "#EXT-X-MEDIA-SEQUENCE:7",
        "#EXT-X-KEY:METHOD=NONE",
        "#EXTINF:2,",
        "segments/7.ts",
        "#EXTINF:2,",
        "segments/8.aac",
        "#EXT-X-ENDLIST",
        "",
      ].join("\n"),
    );
    expect(r.ended).toBe(true);
    expect(r.segments.get(8)).toBe("http://up.example/p/b.aac?sig=1");
  });

  it("keeps only the tags a player needs: no other tag, comment or title carries an upstream link through", () => {
    const leak = "https://up.example/secret?Key-Pair-Id=K&Policy=P&Signature=S";
    const text = [
      "#EXTM3U",
      "#EXT-X-VERSION:3",
      "#EXT-X-INDEPENDENT-SEGMENTS",
      "#EXT-X-TARGETDURATION:2",
      "#EXT-X-MEDIA-SEQUENCE:3",
      "#EXT-X-DISCONTINUITY-SEQUENCE:1",
      "#EXT-X-PLAYLIST-TYPE:EVENT",
      `#EXT-X-DEFINE:NAME="u",VALUE="${leak}"`,
      `#EXT-X-CONTENT-STEERING:SERVER-URI="${leak}"`,
      `#EXT-X-SESSION-DATA:DATA-ID="x",VALUE="${leak}"`,
      `#EXT-X-DATERANGE:ID="ad",START-DATE="2026-01-01T00:00:00Z",X-ASSET-URI="${leak}"`,
      `# signed with ${leak}`,
      `#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMAT="${leak}"`,
      `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES`,
      `#EXT-X-UNKNOWN-FUTURE-TAG:"${leak}"`,
      "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
      `#EXTINF:2.000,${leak}`,
      "a.mp3?sig=1",
      "#EXT-X-DISCONTINUITY",
      "#EXTINF:1.5,",
      "b.mp3?sig=1",
      "#EXT-X-ENDLIST",
    ].join("\n");
    const r = rewritePlaylist(text, "http://up.example/p/hls?sig=1", "http://up.example");
    expect(r.text).toBe(
      [
        "#EXTM3U",
        "#EXT-X-VERSION:3",
        "#EXT-X-INDEPENDENT-SEGMENTS",
        "#EXT-X-TARGETDURATION:2",
        "#EXT-X-MEDIA-SEQUENCE:3",
        "#EXT-X-DISCONTINUITY-SEQUENCE:1",
        "#EXT-X-PLAYLIST-TYPE:EVENT",
        "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
        "#EXTINF:2.000,",
        "segments/3.mp3",
        "#EXT-X-DISCONTINUITY",
        "#EXTINF:1.5,",
        "segments/4.mp3",
        "#EXT-X-ENDLIST",
        "",
      ].join("\n"),
    );
    expect(r.text).not.toMatch(/up\.example|Signature|secret/);
  });

  it("refuses segment URIs on another origin, and non-playlists", () => {
    expect(() =>
      rewritePlaylist(
        "#EXTM3U\n#EXTINF:2,\nhttp://evil.example/x.ts",
        "http://up.example/hls",
        "http://up.example",
      ),
    ).toThrow(/points elsewhere/);
    expect(() => rewritePlaylist("<html>", "http://up.example/hls", "http://up.example")).toThrow(
      /malformed/,
    );
  });
});

describe("linkExpiry", () => {
  it("reads both policy styles and canned Expires", () => {
    const simple = Buffer.from(JSON.stringify({ resource: "/x/*", expires: 1_900_000_000 })).toString(
      "base64url",
    );
    const cloudfront = Buffer.from(
      JSON.stringify({
        Statement: [{ Resource: "/x", Condition: { DateLessThan: { "AWS:EpochTime": 1_800_000_000 } } }],
      }),
    ).toString("base64url");
    expect(linkExpiry(`http://h/x?Policy=${simple}&Signature=s`)).toBe(1_900_000_000_000);
    expect(linkExpiry(`http://h/x?Policy=${cloudfront}&Signature=s`)).toBe(1_800_000_000_000);
    expect(linkExpiry("http://h/x?Expires=1700000000&Signature=s")).toBe(1_700_000_000_000);
    expect(linkExpiry("http://h/x?Policy=%%%")).toBeNull();
  });
});

describe("MediaProxy through the routes", () => {
  it("serves a rewritten playlist with no upstream host, path or signature", async () => {
    useMediaProxy(makeProxy());
    const res = await getPlaylist(
      new Request(`http://app/api/calls/${ID}/audio/playlist.m3u8`),
      ctx({ callId: ID }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const text = await res.text();
    expect(text).toContain("segments/0.mp3\n");
    expect(text).toContain("segments/2.mp3\n");
    for (const leak of [
      "127.0.0.1",
      "Signature",
      "Policy",
      "Key-Pair-Id",
      "/api/v1/",
      "elsewhere.example",
      "http",
    ]) {
      expect(text).not.toContain(leak);
    }
  });

  it("fetches each segment once upstream, however many listeners ask", async () => {
    useMediaProxy(makeProxy());
    const many = await Promise.all(
      Array.from({ length: 200 }, () =>
        getSegment(
          new Request(`http://app/api/calls/${ID}/audio/segments/1.mp3`),
          ctx({ callId: ID, segment: "1.mp3" }),
        ),
      ),
    );
    const bodies = await Promise.all(many.map((r) => r.arrayBuffer()));
    expect(many.every((r) => r.status === 200)).toBe(true);
    expect(bodies.every((b) => b.byteLength === 4000 && new Uint8Array(b)[0] === 1)).toBe(true);
    expect(many[0]!.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(many[0]!.headers.get("content-type")).toBe("audio/mpeg");
    const later = await getSegment(
      new Request(`http://app/api/calls/${ID}/audio/segments/1.mp3`),
      ctx({ callId: ID, segment: "1.mp3" }),
    );
    expect(later.status).toBe(200);
    expect(hits.segment.get(1)).toBe(1);
    expect(hits.playlist).toBe(1);
    expect(linkCalls).toBe(1);
  });

  it("re-signs once when the upstream refuses an expired link", async () => {
    const proxy = makeProxy();
    useMediaProxy(proxy);
    await getPlaylist(new Request(`http://app/api/calls/${ID}/audio/playlist.m3u8`), ctx({ callId: ID }));
    generation = 2; // every link handed out so far is now refused
    const res = await getSegment(
      new Request(`http://app/api/calls/${ID}/audio/segments/2.mp3`),
      ctx({ callId: ID, segment: "2.mp3" }),
    );
    expect(res.status).toBe(200);
    expect(hits.forbidden).toBe(1);
    expect(proxy.stats().resigns).toBe(1);
    expect(linkCalls).toBe(2);
  });

  it("answers 404 for a segment the playlist does not hold", async () => {
    useMediaProxy(makeProxy());
    const res = await getSegment(
      new Request(`http://app/api/calls/${ID}/audio/segments/99.mp3`),
      ctx({ callId: ID, segment: "99.mp3" }),
    );
    expect(res.status).toBe(404);
  });

  it("passes Range through on the MP3 and relays 206 / Content-Range / 416", async () => {
    useMediaProxy(makeProxy());
    const res = await getMp3(
      new Request(`http://app/api/calls/${ID}/audio.mp3`, { headers: { range: "bytes=100-199" } }),
      ctx({ callId: ID }),
    );
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 100-199/${MP3.length}`);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(MP3.subarray(100, 200));

    const whole = await getMp3(new Request(`http://app/api/calls/${ID}/audio.mp3`), ctx({ callId: ID }));
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(MP3);

    const beyond = await getMp3(
      new Request(`http://app/api/calls/${ID}/audio.mp3`, { headers: { range: "bytes=5000-" } }),
      ctx({ callId: ID }),
    );
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${MP3.length}`);

    const bad = await getMp3(
      new Request(`http://app/api/calls/${ID}/audio.mp3`, { headers: { range: "lines=1-2" } }),
      ctx({ callId: ID }),
    );
    expect(bad.status).toBe(416);
  });

  it("rejects any attempt to hand the proxy a URL, and never fetches it", async () => {
    useMediaProxy(makeProxy());
    const evil = encodeURIComponent("http://169.254.169.254/latest/meta-data");
    const attempts = [
      getSegment(
        new Request(`http://app/api/calls/${ID}/audio/segments/1.mp3?url=${evil}`),
        ctx({ callId: ID, segment: "1.mp3" }),
      ),
      getSegment(
        new Request(`http://app/api/calls/${ID}/audio/segments/x`),
        ctx({ callId: ID, segment: decodeURIComponent(evil) }),
      ),
      getSegment(
        new Request(`http://app/api/calls/${ID}/audio/segments/x`),
        ctx({ callId: ID, segment: "../../hls" }),
      ),
      getPlaylist(
        new Request(`http://app/api/calls/${ID}/audio/playlist.m3u8?src=${evil}`),
        ctx({ callId: ID }),
      ),
      getPlaylist(
        new Request(`http://app/api/calls/x/audio/playlist.m3u8`),
        ctx({ callId: "http:%2F%2Fevil" }),
      ),
      getMp3(new Request(`http://app/api/calls/${ID}/audio.mp3?redirect=${evil}`), ctx({ callId: ID })),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_parameter");
    }
    expect(linkCalls).toBe(0);
    expect(hits.playlist + hits.mp3 + hits.segment.size).toBe(0);
  });

  it("refuses links the upstream points at another origin", async () => {
    useMediaProxy(
      makeProxy({
        fetchLinks: async () => ({ ...links(), hls: "http://169.254.169.254/hls?Signature=g1" }),
      }),
    );
    const res = await getPlaylist(
      new Request(`http://app/api/calls/${ID}/audio/playlist.m3u8`),
      ctx({ callId: ID }),
    );
    expect(res.status).toBe(502);
    expect(JSON.stringify(await res.json())).not.toContain("169.254");
  });

  it("says 404 when there is no MP3 yet because the call is live", async () => {
    useMediaProxy(makeProxy({ fetchLinks: async () => ({ ...links(), mp3: null, isEnded: false }) }));
    const res = await getMp3(new Request(`http://app/api/calls/${ID}/audio.mp3`), ctx({ callId: ID }));
    expect(res.status).toBe(404);
  });

  it("says 503 recording_not_ready with Retry-After while an ended call's MP3 is prepared, then serves it", async () => {
    let prepared = false;
    const proxy = makeProxy({
      missingLinkTtlMs: 3_000,
      fetchLinks: async () => ({ ...links(), mp3: prepared ? links().mp3 : null, isEnded: true }),
    });
    useMediaProxy(proxy);
    expect(await proxy.mp3Readiness(ID)).toBe("preparing");
    const res = await getMp3(new Request(`http://app/api/calls/${ID}/audio.mp3`), ctx({ callId: ID }));
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(3);
    expect(await res.json()).toMatchObject({ error: { code: "recording_not_ready" } });

    prepared = true;
    const fresh = makeProxy({
      fetchLinks: async () => ({ ...links(), isEnded: true }),
    });
    useMediaProxy(fresh);
    expect(await fresh.mp3Readiness(ID)).toBe("ready");
    const ok = await getMp3(new Request(`http://app/api/calls/${ID}/audio.mp3`), ctx({ callId: ID }));
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it("says 404, not 503, for an ended call without any recording", async () => {
    const proxy = makeProxy({
      fetchLinks: async () => ({ hls: null, mp3: null, pdf: null, isEnded: true }),
    });
    useMediaProxy(proxy);
    expect(await proxy.mp3Readiness(ID)).toBe("none");
    const res = await getMp3(new Request(`http://app/api/calls/${ID}/audio.mp3`), ctx({ callId: ID }));
    expect(res.status).toBe(404);
  });

  it("marks a sealed playlist cacheable", async () => {
    ended = true;
    useMediaProxy(makeProxy());
    const res = await getPlaylist(
      new Request(`http://app/api/calls/${ID}/audio/playlist.m3u8`),
      ctx({ callId: ID }),
    );
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(await res.text()).toContain("#EXT-X-ENDLIST");
  });

  it("stops asking a failing media origin and fails fast with 503 and Retry-After until it cools down", async () => {
    let now = 1_000_000;
    let fetches = 0;
    const breaker = new CircuitBreaker({
      ...DEFAULT_BREAKER_OPTIONS,
      consecutiveFailures: 2,
      cooldownMs: 5_000,
      now: () => now,
    });
    useMediaProxy(
      makeProxy({
        breaker,
        now: () => now,
        playlistRefreshMs: 0,
        fetch: async () => {
          fetches += 1;
          throw new TypeError("connect ECONNREFUSED");
        },
      }),
    );
    const ask = () =>
      getPlaylist(new Request(`http://app/api/calls/${ID}/audio/playlist.m3u8`), ctx({ callId: ID }));
    expect((await ask()).status).toBe(502);
    expect((await ask()).status).toBe(502);
    expect(fetches).toBe(2);
    const refused = await ask();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("upstream_unavailable");
    expect(fetches).toBe(2);
    // After the cool-down one probe goes through; the origin is back, so the breaker closes.
    now += 5_000;
    useMediaProxy(makeProxy({ breaker, now: () => now }));
    expect((await ask()).status).toBe(200);
    expect(breaker.state).toBe("closed");
  });
});
