/**
 * A LIVE call of the embedded service plays in Chromium with hls.js, straight from the service's signed HLS link:
 * a short call started through the control API, its link read from `GET /api/v1/transcripts/calls/{id}?audio=true`
 * (key `demo`), the EVENT playlist followed while it grows, then `#EXT-X-ENDLIST` and `ended`.
 *
 * Cross-origin on purpose: the page comes from a tiny loopback server of its own, the media from the embedded
 * service. That is how a web player meets the real upstream's signed (CDN-style) links, so the embedded media
 * routes answer with `Access-Control-Allow-Origin: *` (see embedded/live/rest.ts) and this spec proves it.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { embeddedUrl, startCall } from "./fixtures/embedded";

const HLS_JS = readFileSync(
  fileURLToPath(new URL("../node_modules/hls.js/dist/hls.min.js", import.meta.url)),
);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Live call audio</title></head>
<body>
<audio id="player" controls></audio>
<script src="/hls.min.js"></script>
<script>
  window.hlsState = { supported: Hls.isSupported(), errors: [], fatal: null, ended: false, playing: false,
    levelsLoaded: 0, live: null, endlist: false };
  window.play = (url) => {
    const state = window.hlsState;
    const audio = document.getElementById("player");
    audio.addEventListener("playing", () => { state.playing = true; });
    audio.addEventListener("ended", () => { state.ended = true; });
    const hls = new Hls({ enableWorker: true });
    hls.on(Hls.Events.ERROR, (_e, data) => {
      state.errors.push(data.details + (data.response ? " " + data.response.code : "") + (data.error ? " " + data.error.message : ""));
      if (data.fatal) state.fatal = data.details;
    });
    hls.on(Hls.Events.LEVEL_LOADED, (_e, data) => {
      state.levelsLoaded++;
      state.live = data.details.live;
      state.endlist = !data.details.live;
    });
    hls.on(Hls.Events.MANIFEST_PARSED, () => { void audio.play(); });
    hls.loadSource(url);
    hls.attachMedia(audio);
    window.hls = hls;
  };
</script>
</body></html>`;

interface PlayerState {
  supported: boolean;
  errors: string[];
  fatal: string | null;
  ended: boolean;
  playing: boolean;
  levelsLoaded: number;
  live: boolean | null;
  endlist: boolean;
  currentTime: number;
}

let server: Server;
let pageUrl = "";

const api = async (path: string): Promise<Record<string, unknown>> => {
  const response = await fetch(`${embeddedUrl()}${path}`, { headers: { authorization: "token demo" } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    else if (req.url === "/hls.min.js") res.writeHead(200, { "content-type": "text/javascript" }).end(HLS_JS);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test("hls.js plays a live call's signed HLS from the embedded service until ENDLIST", async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto(pageUrl);
  const readState = () =>
    page.evaluate(() => {
      const audio = document.getElementById("player") as HTMLAudioElement;
      const state = (window as unknown as { hlsState: Omit<PlayerState, "currentTime"> }).hlsState;
      return { ...state, currentTime: audio.currentTime } as PlayerState;
    });
  expect((await readState()).supported).toBe(true);

  // A company that is not live already (the scheduler keeps three calls going).
  const live = (await api("/api/v1/transcripts/calls?status=IN_PROGRESS&info_only=true&page_size=100")) as {
    data: { symbol: string }[];
  };
  const busy = new Set(live.data.map((c) => c.symbol));
  const calendar = (await api("/api/v2.1/calendar/earnings?pagesize=200")) as {
    earnings: { ticker: string }[];
  };
  const symbol = calendar.earnings.map((r) => r.ticker).find((t) => !busy.has(t));
  expect(symbol).toBeTruthy();
  const callId = await startCall(symbol as string, 25);

  // The link comes with the call; the playlist behind it answers 404 until it holds its first segment (docs/upstream.md §5),
  // so a player waits for it as it would with the real upstream.
  let hlsUrl = "";
  await expect
    .poll(
      async () => {
        const call = (await api(`/api/v1/transcripts/calls/${callId}?audio=true`)) as {
          recordings?: { formats: { file_link: string; content_type: string }[] }[];
        };
        hlsUrl =
          call.recordings?.[0]?.formats.find((f) => f.content_type === "application/vnd.apple.mpegurl")
            ?.file_link ?? "";
        return hlsUrl;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toContain(`/api/v1/transcripts/calls/${callId}/hls?`);
  expect(hlsUrl).toMatch(/Key-Pair-Id=.+&Policy=.+&Signature=/);
  let playlist = "";
  await expect
    .poll(
      async () => {
        const probe = await fetch(hlsUrl, { headers: { origin: new URL(pageUrl).origin } });
        // Cross-origin readable, errors included: a player can tell "not yet" from "denied".
        expect(probe.headers.get("access-control-allow-origin")).toBe("*");
        playlist = await probe.text();
        return probe.status;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(200);
  expect(playlist).toContain("#EXT-X-PLAYLIST-TYPE:EVENT");
  expect(playlist).not.toContain("#EXT-X-ENDLIST");

  await page.evaluate((url) => (window as unknown as { play: (u: string) => void }).play(url), hlsUrl);

  // Playing while the call is live: the player sees a live (EVENT, no ENDLIST) playlist and time advances.
  await expect
    .poll(
      async () => {
        const state = await readState();
        // The whole state on failure: errors and playlist flags say why playback did not start.
        return state.currentTime > 0.5 ? "playing" : JSON.stringify(state);
      },
      { timeout: 30_000 },
    )
    .toBe("playing");
  const first = await readState();
  expect(first.fatal).toBeNull();
  expect(first.playing).toBe(true);
  expect(first.live).toBe(true);
  const during = (await api(`/api/v1/transcripts/calls/${callId}?info_only=true`)) as { status: string };
  expect(["STARTED", "IN_PROGRESS"]).toContain(during.status);
  await expect
    .poll(async () => (await readState()).currentTime, { timeout: 15_000 })
    .toBeGreaterThan(first.currentTime + 1);

  // The call ends: ENDLIST is appended, the player reaches the end.
  await expect.poll(async () => (await readState()).ended, { timeout: 90_000 }).toBe(true);
  const last = await readState();
  expect(last.fatal).toBeNull();
  expect(last.endlist).toBe(true);
  expect(last.levelsLoaded).toBeGreaterThan(1);
  // Stalls may happen on a loaded machine; a segment the player cannot parse or decode must not.
  expect(last.errors.filter((e) => /pars|decod|append/i.test(e))).toEqual([]);
  const done = (await api(`/api/v1/transcripts/calls/${callId}?info_only=true`)) as {
    status: string;
    duration: number;
  };
  expect(done.status).toBe("COMPLETED");
  expect(last.currentTime).toBeGreaterThan(done.duration - 3);
  const sealed = await (await fetch(hlsUrl)).text();
  expect(sealed).toContain("#EXT-X-ENDLIST");
});
