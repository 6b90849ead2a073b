/**
 * The timeline of a historical call, computed from its script alone: where each sentence starts and ends, in
 * milliseconds from the call start. It is what the REST transcript states, so a historical call is built on demand
 * in milliseconds instead of the seconds its speech synthesis takes (issue 15: under 50 ms).
 *
 * The audio follows the plan, not the other way round: when a historical call's audio is built, each sentence is
 * placed at its planned start (silence fills up to it). A slot is the estimated speech time plus 5 %, which covers
 * about nine sentences in ten as the speech engine says them; a longer one runs into the pause after it and, past
 * the pause, delays the next sentence by the overrun until a shorter sentence has absorbed it.
 */
import type { SpokenSentence } from "./call";
import { estimateSpeechSeconds } from "./script/lines";
import type { CallScript } from "./script/types";
import { rngFromLabel } from "../universe/prng";

/** Silence before the operator's first word (as a live call's lead-in). */
export const PLAN_LEAD_IN_MS = 1200;
/** After the last word, as a live call's trail. */
export const PLAN_TRAIL_MS = 1500;
const SLOT_FACTOR = 1.05;

export interface PlannedTimeline {
  sentences: SpokenSentence[];
  /** Whole seconds: the call's stated duration (end = start + this). */
  durationSeconds: number;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** A plan is a pure function of its script and start: kept as long as the script is (by a cache or a live run). */
const plans = new WeakMap<CallScript, { callStartMs: number; plan: PlannedTimeline }>();

/**
 * Pauses and confidences come from the same per-sentence streams a live run draws them from
 * (`timing|<call_id>|<sequence>`), so a call reads alike whichever way it was produced.
 */
export function planTimeline(script: CallScript, callStartMs: number): PlannedTimeline {
  const known = plans.get(script);
  if (known?.callStartMs === callStartMs) return known.plan;
  const plan = computePlan(script, callStartMs);
  plans.set(script, { callStartMs, plan });
  return plan;
}

function computePlan(script: CallScript, callStartMs: number): PlannedTimeline {
  const sentences: SpokenSentence[] = [];
  let cursor = 0;
  let lastSpeaker: string | null = null;
  script.sentences.forEach((line, sequence) => {
    const rng = rngFromLabel(`timing|${script.callId}|${sequence}`);
    if (lastSpeaker === null) cursor = PLAN_LEAD_IN_MS;
    else cursor += lastSpeaker === line.speakerLabel ? rng.int(250, 450) : rng.int(650, 1000);
    lastSpeaker = line.speakerLabel;
    const startMs = cursor;
    cursor += Math.round(estimateSpeechSeconds(line.text) * 1000 * SLOT_FACTOR);
    sentences.push({
      sequence,
      speakerLabel: line.speakerLabel,
      text: line.text,
      startMs,
      endMs: cursor,
      confidence: round3(0.86 + rng.next() * 0.13),
      words: [],
      releasedAt: new Date(callStartMs + cursor),
    });
  });
  return { sentences, durationSeconds: Math.ceil((cursor + PLAN_TRAIL_MS) / 1000) };
}
