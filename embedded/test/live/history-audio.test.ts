// A historical call's audio follows its planned transcript (planned-timeline.ts): each sentence is spoken where the
// REST transcript says it starts, and the recording lasts the stated duration. A build the service's shutdown cuts
// short is not reported as failed (it printed "speech worker exited (1)" in test runs that closed a service).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildUniverse } from "../../universe/index";
import { DEFAULT_SEED } from "../../config";
import { closeSpeechEngine, createCallAudioTrack, createSpeechEngine } from "../../live/audio/index";
import type { SpeechClip, SpeechEngine } from "../../live/audio/types";
import { testClock } from "../test-clock";
import { CallStore } from "../../live/call-store";
import { createEnricher } from "../../live/enrichment/index";

let speech: SpeechEngine;
const universe = buildUniverse(DEFAULT_SEED);

function historyStore(engine: SpeechEngine): CallStore {
  return new CallStore({
    universe,
    speech: () => Promise.resolve(engine),
    createTrack: () => createCallAudioTrack({ sampleRate: engine.sampleRate }),
    enricher: createEnricher(),
    now: testClock,
    enrichDelayMs: 20_000,
    historyCallSeconds: 600,
    audioCacheSize: 1,
  });
}

beforeAll(async () => {
  speech = await createSpeechEngine();
}, 60_000);

afterAll(() => closeSpeechEngine(speech));

describe("historical audio", () => {
  it("speaks each sentence at its planned start and lasts the planned duration", async () => {
    const store = historyStore(speech);
    const entry = store.all(testClock())[0];
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

/** Speaks the first sentence at once, then holds every later one until `fail` rejects them all. */
function stalledSpeech(): SpeechEngine & { fail(error: Error): void; held(): number } {
  const held: ((error: Error) => void)[] = [];
  let spoken = 0;
  return {
    voices: ["en-us"],
    sampleRate: 22_050,
    synthesize(): Promise<SpeechClip> {
      spoken += 1;
      if (spoken === 1)
        return Promise.resolve({ samples: new Int16Array(22_050 * 3), sampleRate: 22_050, words: [] });
      return new Promise((_, reject) => held.push(reject));
    },
    held: () => held.length,
    fail(error) {
      for (const reject of held.splice(0)) reject(error);
    },
  };
}

/** A historical build waiting for its second sentence, and where errors would be reported. */
async function stalledBuild() {
  const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const stalled = stalledSpeech();
  const store = historyStore(stalled);
  const entry = store.all(testClock())[0]!;
  void store.withAudio(entry);
  // Building the history takes seconds on a loaded machine: more than waitFor's default second.
  await vi.waitFor(() => expect(stalled.held()).toBe(1), { timeout: 20_000 });
  return { errors, stalled, store, entry };
}

describe("historical audio at shutdown", () => {
  afterEach(() => vi.restoreAllMocks());

  it("says nothing of a build the shutdown cut short", async () => {
    const { errors, stalled, store } = await stalledBuild();
    store.close();
    stalled.fail(new Error("speech worker exited (1)"));
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).not.toHaveBeenCalled();
  });

  it("still reports a build that fails while the service runs", async () => {
    const { errors, stalled, store, entry } = await stalledBuild();
    stalled.fail(new Error("speech worker exited (1)"));
    await vi.waitFor(() =>
      expect(errors).toHaveBeenCalledWith(
        `[embedded/live] audio build of ${entry.callId} failed:`,
        expect.objectContaining({ message: "speech worker exited (1)" }),
      ),
    );
    store.close();
  });
});
