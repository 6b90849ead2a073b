/**
 * Real-time factor of the embedded service's call audio: speech (eSpeak NG, WASM) + MP3/HLS encoding (lamejs).
 *
 *   npx tsx bench/audio-rtf.ts [--seconds 20] [--calls 10] [--out /tmp/callroom-sample.mp3]
 *
 * 1. Batch: speaks a scripted call segment sentence by sentence into one track and reports CPU time / audio time
 *    for speech, encoding and both (target ≤ 0.1), and writes the call's MP3 (for ffprobe / listening).
 * 2. Live: runs `--calls` tracks fed at real-time pace for `--seconds`, as the live service does (each call speaks
 *    its next sentence when its published audio catches up, and publishes segments as wall-clock time passes),
 *    and reports the process's CPU utilisation: ten calls fit on one core when it stays well under 100 %.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { closeSpeechEngine, createCallAudioTrack, createSpeechEngine } from "../embedded/live/audio/index";
import type { CallAudioTrack, SpeechEngine } from "../embedded/live/audio/types";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "20" },
    calls: { type: "string", default: "10" },
    out: { type: "string", default: "/tmp/callroom-sample.mp3" },
  },
});
const liveSeconds = Number(values.seconds);
const liveCalls = Number(values.calls);

const SCRIPT = [
  "Good day, and welcome to the Northwind Semiconductor third quarter 2026 earnings conference call.",
  "Thank you, operator. Joining me today is our chief financial officer.",
  "Revenue for Q3 2026 was $4.2 billion, up 12% year over year and ahead of our guidance.",
  "GAAP earnings per share came in at $1.99, compared with $1.61 in the prior year quarter.",
  "Gross margin expanded by 140 basis points to 58.3%, driven by mix and pricing.",
  "We returned $850 million to shareholders through buybacks and dividends.",
  "For the fourth quarter, we expect revenue between $4.3 billion and $4.5 billion.",
  "Operating expenses were $1.1 billion, or 26% of revenue.",
  "Thanks. Could you talk a little more about demand in the data center segment?",
  "Sure. Data center revenue grew 31% sequentially, and our backlog remains healthy.",
  "Our next question comes from the line of a sell-side analyst. Please go ahead.",
  "Free cash flow for the quarter was $612 million, and we ended with $3.8 billion in cash.",
];

const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

async function batch(engine: SpeechEngine): Promise<void> {
  const track = createCallAudioTrack({ sampleRate: engine.sampleRate });
  track.appendSilence(1_000);
  let speechCpu = 0;
  let encodeCpu = 0;
  for (let round = 0; round < 3; round++) {
    for (const [i, sentence] of SCRIPT.entries()) {
      let t = process.cpuUsage();
      const clip = await engine.synthesize(sentence, engine.voices[i % 4]!);
      speechCpu += cpuMs(t);
      t = process.cpuUsage();
      track.append(clip.samples);
      track.appendSilence(450);
      track.publishUntil(track.durationMs);
      encodeCpu += cpuMs(t);
    }
  }
  const t = process.cpuUsage();
  track.finish();
  const mp3 = track.mp3();
  encodeCpu += cpuMs(t);
  const audioMs = track.durationMs;
  console.log(
    `batch: ${(audioMs / 1000).toFixed(1)} s of call audio, ${track.publishedSegments.length} segments`,
  );
  console.log(`  speech   CPU ${speechCpu.toFixed(0)} ms  RTF ${(speechCpu / audioMs).toFixed(4)}`);
  console.log(`  encoding CPU ${encodeCpu.toFixed(0)} ms  RTF ${(encodeCpu / audioMs).toFixed(4)}`);
  const rtf = (speechCpu + encodeCpu) / audioMs;
  console.log(`  total    RTF ${rtf.toFixed(4)} (target ≤ 0.1: ${rtf <= 0.1 ? "met" : "NOT met"})`);
  writeFileSync(values.out, mp3);
  console.log(`  wrote ${values.out} (${mp3.length} bytes)`);
}

interface LiveCall {
  track: CallAudioTrack;
  next: number;
  voiceOffset: number;
}

async function live(engine: SpeechEngine): Promise<void> {
  const calls: LiveCall[] = Array.from({ length: liveCalls }, (_, i) => {
    const track = createCallAudioTrack({ sampleRate: engine.sampleRate });
    track.appendSilence(500 + i * 137);
    return { track, next: i, voiceOffset: i };
  });
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const speakCpu: number[] = [];
  const publishCpu: number[] = [];
  let sentences = 0;
  while (performance.now() - started < liveSeconds * 1000) {
    const elapsed = performance.now() - started;
    for (const call of calls) {
      // Keep about two seconds of audio ahead of the clock, like a live call that speaks its next sentence in time.
      while (call.track.durationMs < elapsed + 2_000) {
        const sentence = SCRIPT[call.next % SCRIPT.length]!;
        const voice = engine.voices[(call.next + call.voiceOffset) % engine.voices.length]!;
        const before = process.cpuUsage();
        const clip = await engine.synthesize(sentence, voice);
        if (elapsed > 3_000) speakCpu.push(cpuMs(before));
        call.track.append(clip.samples);
        call.track.appendSilence(400);
        call.next++;
        sentences++;
      }
      const before = process.cpuUsage();
      call.track.publishUntil(performance.now() - started);
      if (elapsed > 3_000) publishCpu.push(cpuMs(before));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const wallMs = performance.now() - started;
  const used = cpuMs(cpuStart);
  const utilisation = used / wallMs;
  console.log(`live: ${liveCalls} calls for ${(wallMs / 1000).toFixed(1)} s, ${sentences} sentences spoken`);
  console.log(`  process CPU ${used.toFixed(0)} ms = ${(utilisation * 100).toFixed(1)} % of one core`);
  // How long the event loop is busy at once (what WebSocket clients would wait), in CPU time, which other
  // processes competing for the cores do not inflate. Publishing encodes the audio of one tick (~100 ms here).
  // The first 3 s fill every call at once and warm the JIT up: steady state is what a live service sees.
  const line = (label: string, values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    const at = (p: number) =>
      (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(0);
    console.log(`  ${label}: median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`);
  };
  line("speak one sentence", speakCpu);
  line("publishUntil (encode) of one call", publishCpu);
  const verdict = utilisation < 0.7 ? "fit" : "do NOT fit";
  console.log(`  ${liveCalls} live calls ${verdict} on one core (limit used: 70 %)`);
}

const t0 = performance.now();
const engine = await createSpeechEngine();
console.log(`engine ready in ${(performance.now() - t0).toFixed(0)} ms, ${engine.voices.length} voices`);
await batch(engine);
await live(engine);
// The worker is unref'd, but tsx's loader keeps the process alive until the engine is closed.
await closeSpeechEngine(engine);
