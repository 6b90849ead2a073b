import "server-only";
import type { Call, Segment } from "@/lib/schemas/calls";
import { laterStatus, sentenceToSegment } from "@/lib/live/call-conversions";
import { liveSentiment } from "@/common/sentiment";
import { AppError } from "../errors";
import { getUpstreamCall } from "../upstream/calls";
import type { Upstream } from "../upstream/client";
import type { Mp3Readiness } from "../upstream/media";
import type { CallSnapshot, LiveBus } from "./bus";

/**
 * `GET /api/calls/[callId]`: the upstream's call merged with what the live bus has published since. REST lags the
 * socket (and is cached for a few seconds), so a live call's page would otherwise miss its latest sentences; the
 * bus's snapshot also comes with the cursor to resume the stream from, so page + stream together hold every
 * sentence exactly once.
 */

export function mergeCall(
  rest: Omit<Call, "streamCursor"> | null,
  snapshot: CallSnapshot | null,
  headCursor: string,
): Call | null {
  if (!rest && !snapshot) return null;
  const base: Omit<Call, "streamCursor"> = rest ?? {
    callId: snapshot!.callId,
    title: `${snapshot!.name} conference call`,
    symbol: snapshot!.symbol,
    name: snapshot!.name,
    exchange: null,
    period: null,
    year: null,
    startTime: snapshot!.startTime,
    endTime: null,
    durationSeconds: null,
    status: snapshot!.status,
    segments: [],
    summary: null,
    participants: [],
    // The socket announced this call's audio, so a playlist exists or is about to.
    hasAudio: true,
    hasMp3: false,
    hasPdf: false,
  };
  const bySeq = new Map<number, Segment>(base.segments.map((s) => [s.sequence, s]));
  for (const s of snapshot?.sentences ?? []) {
    if (bySeq.has(s.sequence)) continue;
    bySeq.set(s.sequence, sentenceToSegment({ ...s, sentiment: s.sentiment ?? liveSentiment(s.text) }));
  }
  const status = snapshot ? laterStatus(snapshot.status, base.status) : base.status;
  return {
    ...base,
    status,
    segments: [...bySeq.values()].sort((a, b) => a.sequence - b.sequence),
    streamCursor: snapshot ? snapshot.cursor : status === "live" ? headCursor : null,
  };
}

/**
 * `hasMp3` from the REST read follows the lifecycle (MP3 from completion), but the upstream may still be preparing
 * an ended call's MP3. The media proxy's links decide, so the flag is true only when `audio.mp3` serves; while it is
 * false the call room keeps polling (`callRefetchInterval`) and plays the HLS recording meanwhile. Not knowing (the
 * upstream failing) counts as not ready.
 */
export async function confirmMp3(
  call: Call,
  readiness: (callId: string) => Promise<Mp3Readiness>,
): Promise<Call> {
  if (call.status === "live" || !call.hasMp3) return call;
  let ready = false;
  try {
    ready = (await readiness(call.callId)) === "ready";
  } catch {
    ready = false;
  }
  return ready ? call : { ...call, hasMp3: false };
}

export interface LiveCallDeps {
  upstream: Upstream;
  bus: LiveBus;
  mp3Readiness: (callId: string) => Promise<Mp3Readiness>;
}

export interface LiveCallResult {
  call: Call;
  fetchedAt: string;
  stale: boolean;
}

export async function getCallWithLive(
  deps: LiveCallDeps,
  callId: string,
  options: { signal?: AbortSignal } = {},
): Promise<LiveCallResult> {
  const { bus } = deps;
  let rest: Awaited<ReturnType<typeof getUpstreamCall>> | null = null;
  try {
    rest = await getUpstreamCall(deps.upstream, callId, { signal: options.signal });
  } catch (error) {
    // With the upstream down, a call the live bus carries can still be shown from the bus alone.
    if (!(error instanceof AppError && error.status >= 500 && bus.call(callId))) throw error;
  }
  // Taken after REST answered, so its cursor covers at least everything REST could have missed.
  const snapshot = bus.snapshot(callId);
  const merged = mergeCall(rest?.value ?? null, snapshot, bus.headCursor());
  if (!merged) throw new AppError("not_found", "No call with this id.");
  const call = await confirmMp3(merged, deps.mp3Readiness);
  return {
    call,
    fetchedAt: rest?.fetchedAt ?? new Date().toISOString(),
    stale: rest ? rest.stale : true,
  };
}
