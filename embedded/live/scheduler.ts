/**
 * Keeps `EMBEDDED_LIVE_CALLS` calls live on wall-clock time (docs/upstream.md §7), in lanes.
 *
 * Staggering: every lane starts at service start-up (a couple of seconds apart, so their speech synthesis does not
 * pile up), but lane j's first call is shortened to end (N − j) / N of the call length after start-up, so N calls
 * are live from the first minute and their ends are L / N apart (L = `EMBEDDED_CALL_MINUTES`), rather than only one call being live
 * for the first minutes, as offset starts would give. The next call of a lane starts as soon as its predecessor
 * completes, so a lane is never idle.
 *
 * Realignment: a call does not last exactly what it was asked for (its script is sized by an estimate of speech
 * time; very short calls cannot be shorter than their opening and figures). Each lane therefore keeps a schedule of
 * slot ends, first end + k·L, and asks every call to last until its lane's next slot end (at least L / 2, at most
 * 3L / 2, never under 10 s): a call that ran over is followed by a shorter one, one that ended early by a longer
 * one, and the lanes' ends stay spread instead of drifting together.
 *
 * Company choice: deterministic from the lane and slot start, skipping companies already live and the company the
 * lane has just finished (a completed call is replaced by a call on another company).
 */
import { createHash } from "node:crypto";
import type { Company, Universe } from "../universe/types";

export interface SchedulerOptions {
  lanes: number;
  callSeconds: number;
  universe: Universe;
  now: () => number;
  /**
   * Start a call now and resolve once it is running; `onDone` once it has completed. A rejection (or a throw) is
   * retried a few seconds later on another pick.
   */
  start: (company: Company, durationSeconds: number, onDone: () => void) => Promise<unknown> | void;
  liveSymbols: () => Set<string>;
}

const LANE_SPACING_MS = 2000;
const RETRY_MS = 5000;
/** The control API's minimum call length; shorter asks make no sense for a script. */
const MIN_CALL_SECONDS = 10;

interface Lane {
  index: number;
  /** Wall time (ms) the lane's current slot should end. */
  slotEndMs: number;
  lastSymbol: string | null;
}

export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    const { lanes, callSeconds } = this.options;
    const t0 = this.options.now();
    for (let index = 0; index < lanes; index++) {
      const lane: Lane = {
        index,
        slotEndMs: t0 + Math.round((callSeconds * 1000 * (lanes - index)) / lanes),
        lastSymbol: null,
      };
      this.later(index * LANE_SPACING_MS, () => this.launch(lane));
    }
  }

  /** Seconds the lane's next call should last, from now to its slot end (clamped; see the module comment). */
  durationFor(lane: Lane): number {
    const callMs = this.options.callSeconds * 1000;
    const now = this.options.now();
    // A lane that fell more than half a call behind (or ahead) skips (or waits for) whole slots.
    while (lane.slotEndMs - now < callMs / 2) lane.slotEndMs += callMs;
    while (lane.slotEndMs - now > (callMs * 3) / 2) lane.slotEndMs -= callMs;
    return Math.max(MIN_CALL_SECONDS, Math.round((lane.slotEndMs - now) / 1000));
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) fn();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private pick(lane: Lane): Company | undefined {
    const companies = this.options.universe.companies;
    if (companies.length === 0) return undefined;
    const live = this.options.liveSymbols();
    const digest = createHash("sha256")
      .update(`lane|${lane.index}|${Math.floor(this.options.now() / 1000)}`)
      .digest();
    const offset = digest.readUInt32LE(0) % companies.length;
    for (let i = 0; i < companies.length; i++) {
      const company = companies[(offset + i) % companies.length] as Company;
      if (!live.has(company.symbol) && company.symbol !== lane.lastSymbol) return company;
    }
    return undefined;
  }

  private launch(lane: Lane, isFirst = true): void {
    const company = this.pick(lane);
    if (!company) return this.later(RETRY_MS, () => this.launch(lane, false));
    // The first call of a lane was sized at start-up; start-up spacing must not shorten it.
    const durationSeconds = isFirst
      ? Math.max(MIN_CALL_SECONDS, Math.round((lane.slotEndMs - this.options.now()) / 1000))
      : this.durationFor(lane);
    lane.lastSymbol = company.symbol;
    const retry = (error: unknown) => {
      console.error(`[embedded/live] scheduled call on ${company.symbol} failed to start:`, error);
      if (!this.stopped) this.later(RETRY_MS, () => this.launch(lane, false));
    };
    try {
      const started = this.options.start(company, durationSeconds, () => {
        // Synchronously: a timer in between would let a request see one call fewer than N.
        if (!this.stopped) this.launch(lane, false);
      });
      if (started) started.then(undefined, retry);
    } catch (error) {
      retry(error);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
