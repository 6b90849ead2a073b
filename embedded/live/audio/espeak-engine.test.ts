import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine, splitDataSection } from "./espeak-engine";
import type { SpeechClip } from "./types";

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

function durationMs(clip: SpeechClip): number {
  return (clip.samples.length * 1000) / clip.sampleRate;
}

describe("EspeakEngine", () => {
  let engine: EspeakEngine;
  const sentence = "Thank you, operator. Revenue for the quarter was $4.2 billion, up 12% year over year.";

  beforeAll(async () => {
    engine = await EspeakEngine.create();
  });

  it("offers at least eight distinct voices in a stable order", () => {
    expect(engine.voices.length).toBeGreaterThanOrEqual(8);
    expect(new Set(engine.voices).size).toBe(engine.voices.length);
    expect(engine.voices[0]).toBe("en-us+f3");
    expect(engine.sampleRate).toBe(22_050);
  });

  it("is deterministic: the same text and voice give the same samples, whatever was said before", async () => {
    const text = "Gross margin was 58.3%, up 140 basis points.";
    const first = await engine.synthesize(text, engine.voices[2]!);
    await engine.synthesize("Something else entirely, in another voice.", engine.voices[5]!);
    // eSpeak seeds its noise from the clock: a second later must not change a thing.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const again = await engine.synthesize(text, engine.voices[2]!);
    expect(Buffer.from(again.samples.buffer).equals(Buffer.from(first.samples.buffer))).toBe(true);
    expect(again.words).toEqual(first.words);
  });

  it("speaks a sentence as non-silent PCM of plausible duration", async () => {
    const clip = await engine.synthesize(sentence, engine.voices[0]!);
    expect(clip.sampleRate).toBe(22_050);
    const words = sentence.split(" ").length;
    // 14 written words, spoken as ~20 ("four point two billion dollars"): 120–220 words per minute.
    expect(durationMs(clip)).toBeGreaterThan((words * 60_000) / 220);
    expect(durationMs(clip)).toBeLessThan((22 * 60_000) / 120);
    expect(rms(clip.samples)).toBeGreaterThan(500);
  });

  it("gives every voice a different sound", async () => {
    const clips = await Promise.all(
      engine.voices.map((v) => engine.synthesize("Good morning, everyone.", v)),
    );
    const fingerprints = clips.map((c) => `${c.samples.length}:${rms(c.samples).toFixed(0)}`);
    expect(new Set(fingerprints).size).toBe(engine.voices.length);
    for (const clip of clips) expect(rms(clip.samples)).toBeGreaterThan(500);
  });

  it("reports word timings in order and within the clip, one per written word", async () => {
    const clip = await engine.synthesize(sentence, engine.voices[3]!);
    expect(clip.words.map((w) => w.text)).toEqual(sentence.split(" "));
    let previousEnd = 0;
    for (const w of clip.words) {
      expect(w.startMs).toBeGreaterThanOrEqual(previousEnd);
      expect(w.endMs).toBeGreaterThan(w.startMs);
      expect(w.endMs).toBeLessThanOrEqual(durationMs(clip));
      previousEnd = w.endMs;
    }
    // The comma and the period are heard as pauses: the next word starts after a gap.
    const operator = clip.words[2]!;
    const revenue = clip.words[3]!;
    expect(revenue.startMs - operator.endMs).toBeGreaterThan(80);
  });

  it("reads figures aloud: currency, percent and quarters take as long as their words", async () => {
    const voice = engine.voices[1]!;
    const digits = await engine.synthesize("EPS was $1.99, up 12% in Q3 2026.", voice);
    const words = await engine.synthesize(
      "E P S was one dollar and ninety-nine cents, up twelve percent in Q three twenty twenty-six.",
      voice,
    );
    expect(Math.abs(durationMs(digits) - durationMs(words))).toBeLessThan(60);
    // eSpeak alone says "$1.99" as "dollar one point nine nine": much shorter than what an analyst says.
    const naive = await engine.synthesize("E P S was dollar one point nine nine, up twelve percent.", voice);
    expect(durationMs(digits)).toBeGreaterThan(durationMs(naive));
  });

  it("answers an empty clip for text with nothing to say", async () => {
    const clip = await engine.synthesize("   ", engine.voices[0]!);
    expect(clip.samples.length).toBe(0);
    expect(clip.words).toEqual([]);
  });

  it("rejects a malformed voice name", async () => {
    await expect(engine.synthesize("Hello.", "en-us; rm -rf")).rejects.toThrow(/invalid voice/);
  });

  it("serialises concurrent calls and stays fast", async () => {
    const started = process.cpuUsage();
    const clips = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        engine.synthesize(sentence, engine.voices[i % engine.voices.length]!),
      ),
    );
    const cpu = process.cpuUsage(started);
    const audioMs = clips.reduce((sum, c) => sum + durationMs(c), 0);
    expect(clips.every((c) => rms(c.samples) > 500)).toBe(true);
    expect((cpu.user + cpu.system) / 1000 / audioMs).toBeLessThan(0.1);
    // Every sentence so far ran in the one WASM instance created up front.
    expect(engine.instanceCount).toBe(1);
  });

  it("keeps eSpeak's data files only in linear memory, untouched by speech, and a small reset image", async () => {
    await engine.synthesize(sentence, engine.voices[4]!);
    const runtime = engine.currentRuntime!;
    const memory = runtime.memoryBytes;
    // The reset image leaves the data files out on the grounds that nothing writes them: check that it holds.
    const wasm = readFileSync(
      path.join(path.dirname(createRequire(import.meta.url).resolve("espeak-ng")), "espeak-ng.wasm"),
    );
    const { code, segments } = splitDataSection((at, length) => wasm.subarray(at, at + length), wasm.length);
    expect(code.length).toBeLessThan(2_000_000);
    const fileBytes = runtime.dataFiles.reduce((n, f) => n + f.end - f.start, 0);
    expect(fileBytes).toBeGreaterThan(15_000_000);
    for (const file of runtime.dataFiles) {
      const segment = segments.find((s) => s.offset <= file.start && file.end <= s.offset + s.length)!;
      const from = segment.fileOffset + file.start - segment.offset;
      const expected = wasm.subarray(from, from + file.end - file.start);
      expect(Buffer.from(memory.subarray(file.start, file.end)).equals(expected)).toBe(true);
    }
    expect(runtime.imageBytes).toBeLessThan(4_000_000);
  });

  it("discards the instance after a failed run and recovers with a new one", async () => {
    await expect(engine.synthesize("Hello.", "xx-nope")).rejects.toThrow(/espeak-ng/);
    const clip = await engine.synthesize("Hello again.", engine.voices[0]!);
    expect(rms(clip.samples)).toBeGreaterThan(500);
    expect(engine.instanceCount).toBe(2);
  });
});
