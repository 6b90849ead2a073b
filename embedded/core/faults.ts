/**
 * Fault injection (docs/upstream.md §7, control `POST /__embedded/faults`). One fault set is active at a time: a new
 * POST replaces it, DELETE clears it, and it lapses by itself after `durationSeconds` so a crashed test cannot leave
 * the service broken for the next one.
 */
import { z } from "zod";
import { rngFromLabel, type Rng } from "../universe/prng";

export const faultsBodySchema = z
  .object({
    restErrorRate: z.number().min(0).max(1).optional(),
    restStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    restLatencyMs: z.number().int().min(0).max(60_000).optional(),
    wsSilent: z.boolean().optional(),
    durationSeconds: z.number().min(1).max(3600),
  })
  .strict();

export type FaultsBody = z.infer<typeof faultsBodySchema>;

export interface ActiveFaults {
  restErrorRate: number;
  restStatus: 500 | 502 | 503 | 504;
  restLatencyMs: number;
  wsSilent: boolean;
  /** Wall-clock ms when the faults lapse. */
  expiresAtMs: number;
}

export class FaultState {
  private current: ActiveFaults | null = null;
  /**
   * Which requests an error rate fails: the service's one PRNG (universe/prng.ts), a stream per fault set of the run
   * (the first set, the second…), so a test that injects the same faults in the same order sees the same requests fail.
   */
  private rng: Rng = rngFromLabel("faults|0");
  private sets = 0;

  set(body: FaultsBody, nowMs: number): ActiveFaults {
    this.rng = rngFromLabel(`faults|${++this.sets}`);
    this.current = {
      restErrorRate: body.restErrorRate ?? 0,
      restStatus: body.restStatus ?? 500,
      restLatencyMs: body.restLatencyMs ?? 0,
      wsSilent: body.wsSilent ?? false,
      expiresAtMs: nowMs + body.durationSeconds * 1000,
    };
    return this.current;
  }

  clear(): void {
    this.current = null;
  }

  /** Whether the request being answered fails under `faults`' error rate. */
  failsRequest(faults: ActiveFaults): boolean {
    return faults.restErrorRate > 0 && this.rng.next() < faults.restErrorRate;
  }

  /** The faults in force at `nowMs`, or null. */
  active(nowMs: number): ActiveFaults | null {
    if (this.current !== null && nowMs >= this.current.expiresAtMs) this.current = null;
    return this.current;
  }
}
