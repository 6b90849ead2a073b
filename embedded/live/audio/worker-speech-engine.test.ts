import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "./espeak-engine";
import { closeSpeechEngine, createSpeechEngine } from "./index";
import type { SpeechEngine } from "./types";
import { WorkerSpeechEngine } from "./worker-speech-engine";

describe("speech in a worker thread", () => {
  let worker: SpeechEngine;
  let local: EspeakEngine;
  beforeAll(async () => {
    [worker, local] = await Promise.all([createSpeechEngine(), EspeakEngine.create()]);
  }, 60_000);
  afterAll(async () => {
    await closeSpeechEngine(worker);
  });

  it("is the worker engine, with eSpeak's voices and rate", () => {
    expect(worker).toBeInstanceOf(WorkerSpeechEngine);
    expect(worker.voices).toEqual(local.voices);
    expect(worker.sampleRate).toBe(local.sampleRate);
  });

  it("gives exactly the samples and word timings of eSpeak on this thread", async () => {
    const text = "Total revenue for the third quarter was $4.21 billion, up 12% from a year ago.";
    for (const voice of [worker.voices[0]!, worker.voices[3]!]) {
      const [a, b] = await Promise.all([worker.synthesize(text, voice), local.synthesize(text, voice)]);
      expect(a.samples.length).toBeGreaterThan(10_000);
      expect(Buffer.from(a.samples.buffer).equals(Buffer.from(b.samples.buffer))).toBe(true);
      expect(a.words).toEqual(b.words);
    }
  });

  it("keeps the event loop free while it speaks", async () => {
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    const texts = Array.from(
      { length: 6 },
      (_, i) => `Sentence number ${i + 1} of the prepared remarks, spoken aloud.`,
    );
    await Promise.all(texts.map((t) => worker.synthesize(t, worker.voices[1]!)));
    histogram.disable();
    // In-thread synthesis blocks ~50–100 ms per sentence; a loaded shared machine adds its own noise.
    expect(histogram.max / 1e6).toBeLessThan(250);
  });

  it("fails a request for an invalid voice and goes on serving", async () => {
    await expect(worker.synthesize("Hello.", "not a voice!")).rejects.toThrow(/invalid voice/);
    const clip = await worker.synthesize("Hello there.", worker.voices[0]!);
    expect(clip.samples.length).toBeGreaterThan(0);
  });
});
