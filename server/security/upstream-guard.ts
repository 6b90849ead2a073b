import "server-only";
import { observeUpstreamCall } from "../metrics/registry";
import { classifyUpstreamError, getUpstreamBreaker } from "./circuit-breaker";

/**
 * Wraps one upstream REST call (server/upstream/client.ts): the breaker admits it or fails fast, its outcome is
 * recorded, and its latency goes into the upstream histogram.
 */
export async function guardUpstreamCall<T>(call: () => Promise<T>): Promise<T> {
  const breaker = getUpstreamBreaker();
  const admission = breaker.admit();
  const startedAt = performance.now();
  try {
    const result = await call();
    breaker.record(admission, "success");
    observeUpstreamCall("ok", (performance.now() - startedAt) / 1000);
    return result;
  } catch (error) {
    const outcome = classifyUpstreamError(error);
    breaker.record(admission, outcome);
    observeUpstreamCall(outcome === "failure" ? "error" : "other", (performance.now() - startedAt) / 1000);
    throw error;
  }
}
