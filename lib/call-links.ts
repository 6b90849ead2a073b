/**
 * Links into the call room. A moment is a sentence (`s`, its sequence: exact, survives re-timing) and its time
 * (`t`, whole seconds: what the room's "copy link to this moment" has always written, and the fallback while a live
 * call's transcript does not hold the sentence yet). The room scrolls to the sentence, highlights it and cues the
 * audio at its start.
 */
export function callHref(callId: string): string {
  return `/calls/${encodeURIComponent(callId)}`;
}

export function callMomentHref(callId: string, moment: { sequence: number; startMs: number }): string {
  const params = new URLSearchParams({
    s: String(Math.max(0, Math.trunc(moment.sequence))),
    t: String(Math.max(0, Math.floor(moment.startMs / 1000))),
  });
  return `${callHref(callId)}?${params.toString()}`;
}

/** A moment without a sentence (a note pinned to a time): the room cues the audio there. */
export function callTimeHref(callId: string, startMs: number): string {
  return `${callHref(callId)}?t=${Math.max(0, Math.floor(startMs / 1000))}`;
}
