/**
 * Live-call settings (docs/upstream.md §7). The core config checks their shape only; their meaning and bounds live here.
 */
import { z } from "zod";

export interface LiveConfig {
  /** Calls kept live at any time by the scheduler; 0 = only calls started through the control API. */
  liveCalls: number;
  callSeconds: number;
  enrichDelayMs: number;
  linkTtlSeconds: number;
  /** How many completed calls keep their audio in memory (historical builds and finished live calls alike). */
  audioCacheSize: number;
}

const num = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? undefined : Number(v)),
    z.number().min(min).max(max).default(fallback),
  );

const schema = z.object({
  EMBEDDED_LIVE_CALLS: num(3, 0, 20).transform(Math.floor),
  EMBEDDED_CALL_MINUTES: num(12, 0.1, 180),
  EMBEDDED_ENRICH_SECONDS: num(20, 0, 86_400),
  EMBEDDED_LINK_TTL_SECONDS: num(900, 1, 604_800),
  EMBEDDED_AUDIO_CACHE: num(6, 1, 100).transform(Math.floor),
});

export function loadLiveConfig(env: Readonly<Record<string, string | undefined>>): LiveConfig {
  const parsed = schema.parse(env);
  return {
    liveCalls: parsed.EMBEDDED_LIVE_CALLS,
    callSeconds: parsed.EMBEDDED_CALL_MINUTES * 60,
    enrichDelayMs: parsed.EMBEDDED_ENRICH_SECONDS * 1000,
    linkTtlSeconds: parsed.EMBEDDED_LINK_TTL_SECONDS,
    audioCacheSize: parsed.EMBEDDED_AUDIO_CACHE,
  };
}
