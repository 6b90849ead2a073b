// A historical call's audio follows its planned transcript (planned-timeline.ts): each sentence is spoken where the
// REST transcript says it starts, and the recording lasts the stated duration.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUniverse } from "../../universe/index";
import { DEFAULT_SEED } from "../../config";
import { closeSpeechEngine, createCallAudioTrack, createSpeechEngine } from "../audio/index";
import type { SpeechEngine } from "../audio/types";
import { CallStore } from "../call-store";
import { createEnricher } from "../enrichment/index";

let speech: SpeechEngine;

beforeAll(async () => {
  speech = await createSpeechEngine();
}, 60_000);

afterAll(() => closeSpeechEngine(speech));

describe("historical audio", () => {
  it("speaks each sentence at its planned start and lasts the planned duration", async () => {
    const store = new CallStore({
      universe: buildUniverse(DEFAULT_SEED),
      speech: () => Promise.resolve(speech),
      createTrack: () => createCallAudioTrack({ sampleRate: speech.sampleRate }),
      enricher: createEnricher(),
      now: () => Date.now(),
      enrichDelayMs: 20_000,
      historyCallSeconds: 600,
      audioCacheSize: 1,
    });
    const entry = store.all(Date.now())[0];
    expect(entry).toBeDefined();
    if (!entry) return;
    const planned = store.transcriptOf(entry).sentences;
    const runtime = await store.withAudio(entry);
    expect(runtime).not.toBeNull();
    if (!runtime) return;
    await new Promise<void>((resolve) => {
      if (runtime.status === "COMPLETED") resolve();
      else runtime.once("completed", () => resolve());
    });
    expect(runtime.sentences).toHaveLength(planned.length);
    // The speech starts ~20 ms into its clip; a sentence delayed by an overrun ahead of it is the exception.
    const offsets = runtime.sentences.map((s, i) => s.startMs - (planned[i]?.startMs ?? 0));
    const onTime = offsets.filter((d) => d >= 0 && d <= 60).length;
    expect(onTime / offsets.length).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(...offsets)).toBeLessThan(3000);
    const audioSeconds = (runtime.track?.durationMs ?? 0) / 1000;
    expect(Math.abs(audioSeconds - entry.plannedSeconds)).toBeLessThanOrEqual(3);
    store.close();
  }, 180_000);
});
