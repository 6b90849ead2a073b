/* eslint-disable @typescript-eslint/no-explicit-any -- untyped JSON bodies are what these tests inspect, field by field */
// Replay of a transcript file (docs/upstream.md §7, "Replay"; issue 25 item 2), with a file this test writes itself:
// the same WebSocket frames, REST reads and lifecycle as any live call, sentences verbatim in file order, call-time
// offsets at 150 words a minute walked at `speed`, labels stable per person, enrichment with the file's participants.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "../harness";
import { connect, getJson, isJson, isSentenceOf, until, type RecordingClient } from "./helpers";

const FILE = "RPLY_q2_2021.json";
const TRANSCRIPT = {
  header_texts: ["Prepared Remarks:", "Questions and Answers:", "Call participants:"],
  prepared_remarks: [
    {
      speaker: "Operator",
      speech:
        "Good day, and welcome to the Replayco second quarter call. Today's call is being recorded.\nI would now like to turn the call over to Dana Whitfield. Please go ahead.",
    },
    {
      speaker: "Dana Whitfield",
      speech:
        "Thank you. Revenue for the quarter was $4.2 billion, up 8% from a year ago. Mr. Okafor will cover the details.",
    },
    {
      speaker: "Sam Okafor",
      speech: "Thanks, Dana. Gross margin was 41.5%. We expect revenue of $4.4 billion next quarter.",
    },
  ],
  q_and_a: [
    {
      speaker: "Operator",
      speech: "Our first question comes from Lee Park with Crestline Research. Please go ahead.",
    },
    { speaker: "Lee Park", speech: "Thanks. How should we think about margins? And what about pricing?" },
    { speaker: "Sam Okafor", speech: "Margins should hold. Pricing is stable." },
    { speaker: "Operator", speech: "There are no further questions. This concludes today's call." },
  ],
  participants: [
    "Dana Whitfield--Chief Executive Officer",
    "Sam Okafor--Chief Financial Officer",
    "Lee Park--Crestline Research -- Analyst",
  ],
};
const SENTENCES = [
  "Good day, and welcome to the Replayco second quarter call.",
  "Today's call is being recorded.",
  "I would now like to turn the call over to Dana Whitfield.",
  "Please go ahead.",
  "Thank you.",
  "Revenue for the quarter was $4.2 billion, up 8% from a year ago.",
  "Mr. Okafor will cover the details.",
  "Thanks, Dana.",
  "Gross margin was 41.5%.",
  "We expect revenue of $4.4 billion next quarter.",
  "Our first question comes from Lee Park with Crestline Research.",
  "Please go ahead.",
  "Thanks.",
  "How should we think about margins?",
  "And what about pricing?",
  "Margins should hold.",
  "Pricing is stable.",
  "There are no further questions.",
  "This concludes today's call.",
];
const LABELS = [
  ...Array(4).fill("OPERATOR"),
  ...Array(3).fill("SPEAKER_1"),
  ...Array(3).fill("SPEAKER_2"),
  ...Array(2).fill("OPERATOR"),
  ...Array(3).fill("SPEAKER_3"),
  ...Array(2).fill("SPEAKER_2"),
  ...Array(2).fill("OPERATOR"),
];
const words = (text: string) => text.split(/\s+/).length;

let folder: string;
let embedded: TestEmbedded;
let client: RecordingClient;

async function replay(body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${embedded.url}/__embedded/calls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "callroom-replay-"));
  writeFileSync(join(folder, FILE), JSON.stringify(TRANSCRIPT));
  writeFileSync(
    join(folder, "ODDS_q4_2020.json"),
    JSON.stringify({
      prepared_remarks: [{ speaker: "Operator", speech: "Welcome. Goodbye." }, { speaker: "X" }, "nonsense"],
      participants: ["Unidentified Participant", 7],
    }),
  );
  writeFileSync(join(folder, "BROK_q1_2022.json"), "{ not json");
  writeFileSync(join(folder, "EMPT_q1_2022.json"), JSON.stringify({ prepared_remarks: [], q_and_a: [] }));
  writeFileSync(join(folder, "notes.json"), JSON.stringify(TRANSCRIPT));
  mkdirSync(join(folder, "DIRR_q1_2022.json"));
  embedded = await startTestEmbedded({
    EMBEDDED_LIVE_CALLS: "0",
    EMBEDDED_ENRICH_SECONDS: "1",
    EMBEDDED_TRANSCRIPTS_DIR: folder,
  });
  client = await connect(embedded.wsUrl, embedded.key);
  client.send({ action: "subscribe", ticker: "*" });
  await client.waitFor((f) => f.text === "Subscribed to *");
}, 30_000);

afterAll(async () => {
  client?.close();
  await embedded?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("replaying a transcript file", () => {
  it("plays it as a live call: frames, labels, call-time offsets at 150 words a minute, paced at the speed", async () => {
    const speed = 20;
    const started = Date.now();
    const { status, body } = await replay({ transcript: FILE, speed, audio: false });
    expect(status).toBe(200);
    const callId = body.call_id as string;
    expect(callId).toMatch(/^[0-9a-f]{24}$/);

    const last = await client.waitFor(
      (f) => isSentenceOf(callId)(f) && (f as any).value.status === "COMPLETE",
      60_000,
    );
    const wallMs = last.at - started;
    const announced = client.frames.find(
      (f) => isJson(f) && f.value.action === "audio" && f.value.call_id === callId,
    );
    expect(announced, "an audio frame announces the call").toBeDefined();
    expect((announced as any).value).toMatchObject({ symbol: "RPLY" });
    expect((announced as any).value).not.toHaveProperty("hls_url");

    const frames = client.frames.filter(isSentenceOf(callId)).map((f) => (f as any).value);
    expect(frames.map((f) => f.sentence)).toEqual(SENTENCES);
    expect(frames.map((f) => f.speaker)).toEqual(LABELS);
    expect(frames.map((f) => f.sequence)).toEqual(SENTENCES.map((_, i) => i));
    expect(frames.every((f) => f.symbol === "RPLY")).toBe(true);
    // Call time at 1×: each sentence lasts its words at 400 ms; the next starts after it.
    const start = Date.parse(frames[0].start_time) - 1200;
    let callEndMs = 0;
    frames.forEach((f, i) => {
      const s = Date.parse(f.start_time) - start;
      const e = Date.parse(f.end_time) - start;
      expect(e - s, f.sentence).toBe(words(SENTENCES[i]!) * 400);
      if (i > 0) expect(s).toBeGreaterThan(Date.parse(frames[i - 1].end_time) - start);
      callEndMs = e;
    });
    // Paced at real time ÷ speed: the call's minute or so took a few seconds (and not much less).
    expect(wallMs).toBeGreaterThanOrEqual((callEndMs / speed) * 0.9);
    expect(wallMs).toBeLessThan(callEndMs / speed + 10_000);
  }, 90_000);

  it("reads over REST as any call, completes, and is enriched with the file's participants", async () => {
    const { body } = await replay({ transcript: FILE, speed: 50 });
    const callId = body.call_id as string;
    const live = await until(
      async () => {
        const call = (await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}`)).body;
        return call.status === "IN_PROGRESS" ? call : null;
      },
      30_000,
      50,
    );
    expect(live).toMatchObject({ symbol: "RPLY", period: "Q2", year: 2021, end_time: null });
    const listed = (
      await getJson(`${embedded.url}/api/v1/transcripts/calls?symbol=RPLY&status=ALL&info_only=true`)
    ).body;
    expect(listed.data.map((c: any) => c.call_id)).toContain(callId);

    const enriched = await until(
      async () => {
        const call = (await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}?audio=true`)).body;
        return call.status === "COMPLETED" && call.summary !== null ? call : null;
      },
      60_000,
      250,
    );
    expect(enriched.recordings).toEqual([]);
    // Its times are on the call's own timeline: the end is the start plus the call's length at 1×, though the
    // replay took a fiftieth of it.
    const lengthMs = Date.parse(enriched.end_time) - Date.parse(enriched.start_time);
    expect(lengthMs - enriched.duration * 1000).toBeGreaterThanOrEqual(0);
    expect(lengthMs - enriched.duration * 1000).toBeLessThan(1000);
    const lastSegment = enriched.transcripts[0].segments.at(-1);
    expect(lengthMs).toBeGreaterThan(lastSegment.end_ms);
    const final = enriched.transcripts.find((t: any) => t.type === "NON_LIVE");
    expect(final.segments.map((s: any) => s.text)).toEqual(SENTENCES);
    expect(new Set(final.segments.map((s: any) => s.speaker))).toEqual(
      new Set(["Operator", "Dana Whitfield", "Sam Okafor", "Lee Park"]),
    );
    const people = enriched.participants.map((p: any) => ({
      name: p.name,
      role: p.role,
      organization: p.organization,
    }));
    expect(people).toEqual(
      expect.arrayContaining([
        { name: "Dana Whitfield", role: "Chief Executive Officer", organization: "RPLY" },
        { name: "Sam Okafor", role: "Chief Financial Officer", organization: "RPLY" },
        { name: "Lee Park", role: "Analyst", organization: "Crestline Research" },
      ]),
    );
    // The media of a replay without audio do not exist.
    const media = await fetch(`${embedded.url}/api/v1/transcripts/calls/${callId}/audio.mp3`);
    expect(media.status).toBeGreaterThanOrEqual(400);
  }, 90_000);

  it("with audio, speaks it: the call has its HLS playlist, as any live call", async () => {
    const { status, body } = await replay({ transcript: FILE, speed: 4, audio: true });
    expect(status).toBe(200);
    const callId = body.call_id as string;
    const announced = await client.waitFor(
      (f) => isJson(f) && f.value.action === "audio" && f.value.call_id === callId,
      60_000,
    );
    expect((announced as any).value.hls_url).toMatch(/\/hls\?/);
    const call = (await getJson(`${embedded.url}/api/v1/transcripts/calls/${callId}?audio=true`)).body;
    const hls = call.recordings[0].formats.find(
      (f: any) => f.content_type === "application/vnd.apple.mpegurl",
    );
    const playlist = await fetch(hls.file_link);
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toMatch(/#EXTINF/);
    const first = await client.waitFor(isSentenceOf(callId), 60_000);
    expect((first as any).value.sentence).toBe(SENTENCES[0]);
  }, 120_000);

  it("keeps up at 60× with hundreds of short sentences (more than one per 100 ms tick)", async () => {
    const turns = Array.from({ length: 40 }, (_, t) => ({
      speaker: t % 2 === 0 ? "Dana Whitfield" : "Sam Okafor",
      speech: Array.from({ length: 10 }, (_, i) => `Point ${t}-${i} holds.`).join(" "),
    }));
    writeFileSync(
      join(folder, "LONG_q1_2021.json"),
      JSON.stringify({ prepared_remarks: turns, q_and_a: [] }),
    );
    const started = Date.now();
    const { body } = await replay({ transcript: "LONG_q1_2021.json", speed: 60 });
    const last = await client.waitFor(
      (f) => isSentenceOf(body.call_id)(f) && (f as any).value.status === "COMPLETE",
      60_000,
    );
    const frames = client.frames.filter(isSentenceOf(body.call_id));
    expect(frames).toHaveLength(400);
    // 400 sentences of 3 words (1.2 s) with their pauses: about 10.5 minutes of call time, 10.5 s at 60×.
    const callMs = Date.parse((last as any).value.end_time) - Date.parse((frames[0] as any).value.start_time);
    expect(callMs).toBeGreaterThan(600_000);
    expect(last.at - started).toBeLessThan(callMs / 60 + 6000);
  }, 90_000);

  it("replays an odd file with what it has", async () => {
    const { status, body } = await replay({ transcript: "ODDS_q4_2020.json", speed: 50 });
    expect(status).toBe(200);
    const done = await client.waitFor(
      (f) => isSentenceOf(body.call_id)(f) && (f as any).value.status === "COMPLETE",
      30_000,
    );
    expect((done as any).value.sentence).toBe("Goodbye.");
  }, 60_000);

  it.each([
    [{}, 400, /transcript/],
    [{ transcript: FILE, symbol: "NWSC" }, 400, /either/],
    [{ transcript: FILE, speed: 0 }, 400, /speed/],
    [{ transcript: FILE, speed: 1000 }, 400, /speed/],
    [{ transcript: FILE, speed: "fast" }, 400, /speed/],
    [{ transcript: FILE, audio: "yes" }, 400, /audio/],
    [{ transcript: "../RPLY_q2_2021.json" }, 400, /file name/],
    [{ transcript: "sub/RPLY_q2_2021.json" }, 400, /file name/],
    [{ transcript: "/etc/passwd" }, 400, /file name/],
    [{ transcript: "notes.json" }, 400, /<TICKER>_q<N>_<YEAR>\.json/],
    [{ transcript: "NONE_q1_2021.json" }, 404, /NONE_q1_2021\.json/],
    [{ transcript: "DIRR_q1_2022.json" }, 404, /DIRR_q1_2022\.json/],
    [{ transcript: "BROK_q1_2022.json" }, 400, /not JSON/],
    [{ transcript: "EMPT_q1_2022.json" }, 400, /no speaker turn/],
  ])("refuses %j with %i and says why", async (request, status, message) => {
    const answer = await replay(request);
    expect(answer.status).toBe(status);
    expect(JSON.stringify(answer.body)).toMatch(message);
  });
});

describe("without EMBEDDED_TRANSCRIPTS_DIR", () => {
  it("answers 400 naming the variable", async () => {
    const plain = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0", EMBEDDED_TRANSCRIPTS_DIR: "" });
    try {
      const response = await fetch(`${plain.url}/__embedded/calls`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ transcript: FILE }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/EMBEDDED_TRANSCRIPTS_DIR/);
    } finally {
      await plain.close();
    }
  }, 30_000);
});
