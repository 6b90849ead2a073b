/**
 * Keeps `EMBEDDED_LIVE_CALLS` calls live on wall-clock time (contract §7), in lanes.
 *
 * Staggering: every lane starts at service start-up (a couple of seconds apart, so their speech synthesis does not
 * pile up), but lane j's first call is shortened to (N − j) / N of the call length. From then on every call lasts
 * `EMBEDDED_CALL_MINUTES` and the next call of a lane starts as soon as its predecessor completes, so N calls are
 * live at any time from the first minute and their ends stay spread evenly — rather than only one call being live
 * for the first minutes, as offset starts would give.
 *
 * Company choice: deterministic from the lane and slot start, skipping companies already live.
 */
import { createHash } from "node:crypto";
import type { Company, Universe } from "../universe/types";

export interface SchedulerOptions {
  lanes: number;
  callSeconds: number;
  universe: Universe;
  now: () => number;
  /** Start a call now; `onDone` once it has completed. */
  start: (company: Company, durationSeconds: number, onDone: () => void) => void;
  liveSymbols: () => Set<string>;
}

const LANE_SPACING_MS = 2000;

export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    const { lanes, callSeconds } = this.options;
    for (let lane = 0; lane < lanes; lane++) {
      const first = Math.max(30, Math.round((callSeconds * (lanes - lane)) / lanes));
      this.later(lane * LANE_SPACING_MS, () => this.launch(lane, first));
    }
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) fn();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private pick(lane: number): Company | undefined {
    const companies = this.options.universe.companies;
    if (companies.length === 0) return undefined;
    const live = this.options.liveSymbols();
    const digest = createHash("sha256")
      .update(`lane|${lane}|${Math.floor(this.options.now() / 1000)}`)
      .digest();
    const offset = digest.readUInt32LE(0) % companies.length;
    for (let i = 0; i < companies.length; i++) {
      const company = companies[(offset + i) % companies.length] as Company;
      if (!live.has(company.symbol)) return company;
    }
    return undefined;
  }

  private launch(lane: number, durationSeconds: number): void {
    const company = this.pick(lane);
    if (!company) return this.later(5000, () => this.launch(lane, this.options.callSeconds));
    try {
      this.options.start(company, durationSeconds, () => {
        if (!this.stopped) this.later(0, () => this.launch(lane, this.options.callSeconds));
      });
    } catch (error) {
      console.error("[embedded/live] scheduled call failed to start:", error);
      this.later(5000, () => this.launch(lane, this.options.callSeconds));
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
