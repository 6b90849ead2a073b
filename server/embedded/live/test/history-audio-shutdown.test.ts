// Shutting the service down while a historical call's audio is being built: the speech the closing engine cuts short
// is not reported as a failed build (it printed "speech worker exited (1)" in test runs that closed a service),
// while a build that fails for another reason still is.
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildUniverse } from "../../universe/index";
import { DEFAULT_SEED } from "../../config";
import { createCallAudioTrack } from "../audio/index";
import type { SpeechClip, SpeechEngine } from "../audio/types";
import { CallStore } from "../call-store";
import { createEnricher } from "../enrichment/index";

const universe = buildUniverse(DEFAULT_SEED);

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

function storeWith(speech: SpeechEngine) {
  return new CallStore({
    universe,
    speech: () => Promise.resolve(speech),
    createTrack: () => createCallAudioTrack({ sampleRate: speech.sampleRate }),
    enricher: createEnricher(),
    now: () => Date.now(),
    enrichDelayMs: 20_000,
    historyCallSeconds: 600,
    audioCacheSize: 1,
  });
}

afterEach(() => vi.restoreAllMocks());

describe("historical audio at shutdown", () => {
  it("says nothing of a build the shutdown cut short", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const speech = stalledSpeech();
    const store = storeWith(speech);
    const entry = store.all(Date.now())[0]!;
    void store.withAudio(entry);
    // The build is waiting for its second sentence when the service closes.
    await vi.waitFor(() => expect(speech.held()).toBe(1));
    store.close();
    speech.fail(new Error("speech worker exited (1)"));
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).not.toHaveBeenCalled();
  });

  it("still reports a build that fails while the service runs", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const speech = stalledSpeech();
    const store = storeWith(speech);
    const entry = store.all(Date.now())[0]!;
    void store.withAudio(entry);
    await vi.waitFor(() => expect(speech.held()).toBe(1));
    speech.fail(new Error("speech worker exited (1)"));
    await vi.waitFor(() =>
      expect(errors).toHaveBeenCalledWith(
        `[embedded/live] audio build of ${entry.callId} failed:`,
        expect.objectContaining({ message: "speech worker exited (1)" }),
      ),
    );
    store.close();
  });
});
