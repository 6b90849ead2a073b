/**
 * Proves hls.js plays the embedded service's call audio in Chromium: speech from the real engine, encoded by a
 * `CallAudioTrack` into MP3 packed-audio segments behind an EVENT playlist that grows with wall-clock time and then
 * gets `#EXT-X-ENDLIST`. The page refuses Chromium's native HLS and requires hls.js (MSE), the dashboard's player.
 * Self-contained: its own loopback server on an OS-chosen port; it needs neither the app nor the embedded service.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { createCallAudioTrack, createSpeechEngine } from "../embedded/live/audio/index";
import type { CallAudioTrack } from "../embedded/live/audio/types";

const HLS_JS = readFileSync(
  fileURLToPath(new URL("../node_modules/hls.js/dist/hls.min.js", import.meta.url)),
);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>HLS audio</title></head>
<body>
<audio id="player" controls></audio>
<script src="/hls.min.js"></script>
<script>
  const state = { supported: false, errors: [], fatal: null, ended: false, playing: false, levelsLoaded: 0 };
  window.hlsState = state;
  const audio = document.getElementById("player");
  audio.addEventListener("playing", () => { state.playing = true; });
  audio.addEventListener("ended", () => { state.ended = true; });
  state.supported = Hls.isSupported();
  if (state.supported) {
    const hls = new Hls({ enableWorker: true });
    hls.on(Hls.Events.ERROR, (_e, data) => {
      state.errors.push(data.details);
      if (data.fatal) state.fatal = data.details;
    });
    hls.on(Hls.Events.LEVEL_LOADED, () => { state.levelsLoaded++; });
    hls.on(Hls.Events.MANIFEST_PARSED, () => { void audio.play(); });
    hls.loadSource("/call/hls.m3u8");
    hls.attachMedia(audio);
    window.hls = hls;
  }
</script>
</body></html>`;

const SENTENCES = [
  "Good afternoon, and welcome to the third quarter earnings call.",
  "Revenue was $4.2 billion, up 12% year over year.",
  "Earnings per share came in at $1.99. Operator, please open the line for questions.",
];

let server: Server;
let baseUrl = "";
let track: CallAudioTrack;
let clock: NodeJS.Timeout | undefined;
let playlistRequests = 0;

test.beforeAll(async () => {
  const engine = await createSpeechEngine();
  track = createCallAudioTrack({ sampleRate: engine.sampleRate });
  track.appendSilence(300);
  for (const [i, sentence] of SENTENCES.entries()) {
    const clip = await engine.synthesize(sentence, engine.voices[i % engine.voices.length]!);
    track.append(clip.samples);
    track.appendSilence(400);
  }

  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const segment = /^\/call\/(\d+)\.mp3$/.exec(url.pathname);
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    } else if (url.pathname === "/hls.min.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(HLS_JS);
    } else if (url.pathname === "/call/hls.m3u8") {
      playlistRequests++;
      res
        .writeHead(200, { "content-type": "application/vnd.apple.mpegurl", "cache-control": "no-store" })
        .end(track.playlist((i) => `/call/${i}.mp3`));
    } else if (segment) {
      const bytes = track.segment(Number(segment[1]));
      if (bytes) res.writeHead(200, { "content-type": "audio/mpeg" }).end(bytes);
      else res.writeHead(404).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The call runs on wall-clock time: segments appear as their audio "happens", then the call ends.
  const started = Date.now();
  track.publishUntil(2_000);
  clock = setInterval(() => {
    const elapsed = Date.now() - started + 2_000;
    track.publishUntil(elapsed);
    if (elapsed >= track.durationMs && !track.isFinished) track.finish();
  }, 200);
});

test.afterAll(async () => {
  if (clock) clearInterval(clock);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test("hls.js plays the growing EVENT playlist of spoken MP3 segments to the end", async ({ page }) => {
  test.setTimeout(90_000);
  expect(track.publishedSegments.length).toBeGreaterThan(0);
  expect(track.isFinished).toBe(false);
  await page.goto(baseUrl);

  const supported = await page.evaluate(
    () => (window as unknown as { hlsState: { supported: boolean } }).hlsState.supported,
  );
  expect(supported).toBe(true);

  const readState = () =>
    page.evaluate(() => {
      const audio = document.getElementById("player") as HTMLAudioElement;
      const state = (
        window as unknown as {
          hlsState: { errors: string[]; fatal: string | null; ended: boolean; playing: boolean };
        }
      ).hlsState;
      return { currentTime: audio.currentTime, ...state };
    });

  await expect.poll(async () => (await readState()).currentTime, { timeout: 20_000 }).toBeGreaterThan(1);
  const first = await readState();
  expect(first.fatal).toBeNull();
  expect(first.playing).toBe(true);
  await expect
    .poll(async () => (await readState()).currentTime, { timeout: 10_000 })
    .toBeGreaterThan(first.currentTime + 1);

  await expect.poll(async () => (await readState()).ended, { timeout: 60_000 }).toBe(true);
  const last = await readState();
  expect(last.fatal).toBeNull();
  // Stalls may happen on a loaded machine; a segment the player cannot parse or decode must not.
  expect(last.errors.filter((e) => /pars|decod|append/i.test(e))).toEqual([]);
  expect(track.isFinished).toBe(true);
  // It really was live: the player reloaded the playlist while it grew.
  expect(playlistRequests).toBeGreaterThan(1);
  const totalSeconds = track.publishedSegments.reduce((s, seg) => s + seg.durationMs, 0) / 1000;
  expect(last.currentTime).toBeGreaterThan(totalSeconds - 0.5);
});
