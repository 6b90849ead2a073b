/**
 * An old call's MP3 against the embedded service: the service renders an old call's audio lazily (on the first
 * `audio=true` read) and lists the MP3 format only once it is built. Until then our detail must not promise the
 * MP3, and the MP3 route must answer a retryable 503, not a 404 that reads like "this call never ends".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getMp3 } from "@/app/api/calls/[callId]/audio.mp3/route";
import { GET as getPlaylist } from "@/app/api/calls/[callId]/audio/playlist.m3u8/route";
import { GET as getCallRoute } from "@/app/api/calls/[callId]/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import type { Call, CallListResponse } from "@/lib/schemas/calls";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { MediaProxy } from "@/server/upstream/media";
import { refreshRuntime } from "@/test/support/upstream-env";

let embedded: TestEmbedded;
const savedEnv = { ...process.env };

beforeAll(async () => {
  embedded = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0" });
  process.env.UPSTREAM_BASE_URL = embedded.url;
  process.env.UPSTREAM_WS_URL = embedded.wsUrl;
  process.env.UPSTREAM_API_KEY = embedded.key;
  process.env.UPSTREAM_TIMEOUT_MS = "30000";
  refreshRuntime({ media: (defaults) => new MediaProxy({ ...defaults, missingLinkTtlMs: 1_000 }) });
});

afterAll(async () => {
  await embedded?.close();
  process.env = savedEnv;
  refreshRuntime();
});

const ctx = <T>(params: T) => ({ params: Promise.resolve(params) });

async function detail(callId: string): Promise<Call> {
  const res = await getCallRoute(new Request(`http://app.test/api/calls/${callId}`), ctx({ callId }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Call }).data;
}

describe("an old call's MP3 while the upstream prepares it", () => {
  it("never promises an MP3 it cannot serve: 503 recording_not_ready with Retry-After, then the file", async () => {
    const res = await listCallsRoute(new Request("http://app.test/api/calls?status=completed&pageSize=1"));
    const callId = ((await res.json()) as CallListResponse).data[0]!.callId;

    const first = await detail(callId);
    expect(first.status).not.toBe("live");
    const mp3 = await getMp3(new Request(`http://app.test/api/calls/${callId}/audio.mp3`), ctx({ callId }));
    if (first.hasMp3) {
      // The bug: hasMp3 said true while this answered 404 "appears once the call has ended".
      expect(mp3.status).toBe(200);
      await mp3.body?.cancel();
    } else {
      expect(mp3.status).toBe(503);
      expect(Number(mp3.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await mp3.json()).toMatchObject({ error: { code: "recording_not_ready" } });
      // Meanwhile the HLS recording plays.
      const playlist = await getPlaylist(
        new Request(`http://app.test/api/calls/${callId}/audio/playlist.m3u8`),
        ctx({ callId }),
      );
      expect(playlist.status).toBe(200);
      expect(await playlist.text()).toMatch(/^#EXTM3U/);
    }

    // Once prepared, the flag and the file agree.
    const deadline = Date.now() + 150_000;
    for (;;) {
      const call = await detail(callId);
      if (call.hasMp3) break;
      if (Date.now() > deadline) throw new Error("the MP3 never became ready");
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const ready = await getMp3(
      new Request(`http://app.test/api/calls/${callId}/audio.mp3`, { headers: { range: "bytes=0-99" } }),
      ctx({ callId }),
    );
    expect(ready.status).toBe(206);
    expect((await ready.arrayBuffer()).byteLength).toBe(100);
  }, 200_000);
});
