/**
 * Starts a record's call live when its time comes while the service runs (issue 15, item 5): the calendar shows the
 * record's actuals from its release time on (the universe renders them by the clock), and the call follows the
 * release (`callStartOf`). Only starts that pass after the watcher began count: a call that was already under way
 * at start-up is left to history.
 */
import type { HistoryEntry } from "./call-store";

export interface ReleaseWatcherOptions {
  now: () => number;
  intervalMs: number;
  /** Calls whose start lies in (fromMs, toMs]. */
  due: (fromMs: number, toMs: number) => HistoryEntry[];
  /** True when a run with this id exists already (a second check must not start it twice). */
  isRunning: (callId: string) => boolean;
  start: (entry: HistoryEntry) => Promise<unknown>;
}

export class ReleaseWatcher {
  private checkedUntilMs: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ReleaseWatcherOptions) {
    this.checkedUntilMs = options.now();
  }

  start(): void {
    let failures = 0;
    this.timer = setInterval(() => {
      try {
        this.check();
        failures = 0;
      } catch (error) {
        // Said once when it persists (five checks in a row), not once a second; a request that meets the same
        // failure reports it to its client anyway.
        if (++failures === 5) console.error("[embedded/live] release check keeps failing:", error);
      }
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** Starts every call due since the last check; returns the ids started. */
  check(): string[] {
    const now = this.options.now();
    if (now <= this.checkedUntilMs) return [];
    const due = this.options.due(this.checkedUntilMs, now);
    this.checkedUntilMs = now;
    const started: string[] = [];
    for (const entry of due) {
      if (this.options.isRunning(entry.callId)) continue;
      started.push(entry.callId);
      this.options.start(entry).catch((error: unknown) => {
        console.error(`[embedded/live] release call ${entry.callId} failed to start:`, error);
      });
    }
    return started;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
