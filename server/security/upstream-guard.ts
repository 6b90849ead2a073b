import "server-only";
import { classifyUpstreamError, type CircuitBreaker } from "./circuit-breaker";

/** Receives each upstream call's outcome and latency (the runtime passes the metrics registry's observer). */
export type UpstreamCallObserver = (outcome: "ok" | "error" | "other", seconds: number) => void;

/**
 * Wraps one upstream call (server/upstream/client.ts, media fetches): the breaker admits it or fails fast, its outcome
 * is recorded, and its latency is reported to the observer.
 */
export async function guardUpstreamCall<T>(
  breaker: CircuitBreaker,
  observe: UpstreamCallObserver | undefined,
  call: () => Promise<T>,
): Promise<T> {
  const admission = breaker.admit();
  const startedAt = performance.now();
  try {
    const result = await call();
    breaker.record(admission, "success");
    observe?.("ok", (performance.now() - startedAt) / 1000);
    return result;
  } catch (error) {
    const outcome = classifyUpstreamError(error);
    breaker.record(admission, outcome);
    observe?.(outcome === "failure" ? "error" : "other", (performance.now() - startedAt) / 1000);
    throw error;
  }
}
