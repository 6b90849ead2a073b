"use client";

import { isImportedCall } from "@/lib/queries/calls";
import { Button } from "@/components/ui/button";
import { Section } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/panel-state";
import { formatInteger } from "@/lib/format";
import type { Call } from "@/lib/schemas/calls";
import { formatClock, speakerLabel } from "./call-format";
import { InferredMark, type SpeakerNameView } from "./speaker-names";
import { closestSegmentIndex } from "./transcript-search";
import { useMemo } from "react";

export function SummaryPanel({ call, onJump }: { call: Call; onJump: (segmentIndex: number) => void }) {
  const summary = call.summary;
  const points = summary?.points ?? [];
  const links = useMemo(
    () => (summary?.points ?? []).map((p) => closestSegmentIndex(call.segments, p)),
    [summary, call.segments],
  );
  return (
    <Section title="Summary" id="summary">
      {summary && points.length > 0 ? (
        <ol className="flex flex-col gap-1.5" data-testid="summary-points">
          {points.map((point, i) => {
            const index = links[i] ?? -1;
            const segment = index >= 0 ? call.segments[index] : undefined;
            return (
              <li key={i} className="flex gap-2 text-[13px] leading-5">
                <span aria-hidden className="text-muted tabular-nums">
                  {i + 1}.
                </span>
                <span className="min-w-0 flex-1">
                  {point}{" "}
                  {segment ? (
                    <button
                      type="button"
                      className="text-accent text-xs whitespace-nowrap tabular-nums hover:underline"
                      onClick={() => onJump(index)}
                      aria-label={`Go to the sentence at ${formatClock(segment.startMs / 1000)}`}
                    >
                      → {formatClock(segment.startMs / 1000)}
                    </button>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ol>
      ) : (
        <EmptyState
          className="py-6"
          title={
            call.status === "live"
              ? "Summary after the call"
              : isImportedCall(call.callId)
                ? "No summary"
                : "Summary in preparation"
          }
          hint={
            isImportedCall(call.callId)
              ? "An imported transcript has no summary: the market-data service writes them for its own calls."
              : call.status === "enriched"
                ? "The market-data service has not published a summary for this call."
                : "The summary appears here by itself once the call is enriched."
          }
        />
      )}
    </Section>
  );
}

export function ParticipantsPanel({
  call,
  speakerNames,
}: {
  call: Call;
  /** Names read from the call while it is live (the insights' speakers), shown marked as inferred. */
  speakerNames?: ReadonlyMap<string, SpeakerNameView>;
}) {
  const speakers = useMemo(() => {
    const seen = new Map<string, string | null>();
    for (const s of call.segments) if (!seen.has(s.speaker)) seen.set(s.speaker, s.speakerName);
    return seen;
  }, [call.segments]);
  const named = [...speakers.keys()].filter(
    (label) => !/^operator$/i.test(label) && speakerNames?.has(label),
  );
  return (
    <Section title="Participants" id="participants">
      {call.participants.length > 0 ? (
        <ul className="divide-line flex flex-col divide-y text-[13px]">
          {call.participants.map((p) => (
            <li key={`${p.name}-${p.role ?? ""}`} className="flex items-baseline justify-between gap-2 py-1">
              <span className="min-w-0">
                <span className="font-medium">{p.name}</span>
                <span className="text-muted"> {[p.role, p.organization].filter(Boolean).join(", ")}</span>
              </span>
              {p.mentions !== null ? (
                <span
                  className="text-2xs text-muted whitespace-nowrap tabular-nums"
                  title="Times mentioned in the call"
                >
                  {formatInteger(p.mentions)} mentions
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : named.length > 0 ? (
        <>
          <ul className="divide-line flex flex-col divide-y text-[13px]" data-testid="inferred-speakers">
            {named.map((label) => {
              const view = speakerNames!.get(label)!;
              return (
                <li key={label} className="flex items-baseline justify-between gap-2 py-1">
                  <span className="min-w-0">
                    <span className="font-medium">{view.name}</span>
                    {view.inferred ? <InferredMark /> : null}
                  </span>
                  <span className="text-2xs text-muted whitespace-nowrap">
                    {speakerLabel({ speaker: label, speakerName: null })}
                  </span>
                </li>
              );
            })}
          </ul>
          <p className="text-2xs text-muted mt-1">
            {speakers.size} {speakers.size === 1 ? "voice" : "voices"} so far; names read from the call are
            confirmed when the call is enriched.
          </p>
        </>
      ) : speakers.size > 0 ? (
        <p className="text-muted text-[13px]">
          {speakers.size} {speakers.size === 1 ? "voice" : "voices"} so far; names are added when the call is
          enriched.
        </p>
      ) : (
        <p className="text-muted text-[13px]">Nobody has spoken yet.</p>
      )}
    </Section>
  );
}

export function DownloadsPanel({
  call,
  onCopyMoment,
  copied,
}: {
  call: Call;
  onCopyMoment: () => void;
  copied: boolean;
}) {
  return (
    <Section title="Share and download" id="downloads">
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={onCopyMoment}>{copied ? "Link copied" : "Copy link to this moment"}</Button>
        {call.hasMp3 ? (
          <a
            className="border-line hover:bg-surface-2 inline-flex h-7 items-center rounded border px-2.5 text-[13px] font-medium"
            href={`/api/calls/${call.callId}/audio.mp3`}
            download
          >
            Audio (MP3)
          </a>
        ) : call.status !== "live" && call.hasAudio ? (
          // The upstream prepares an ended call's MP3 after the fact; the page polls until it is there.
          <span className="text-2xs text-muted" role="status">
            MP3 is being prepared; the recording plays meanwhile.
          </span>
        ) : null}
        {call.hasPdf ? (
          <a
            className="border-line hover:bg-surface-2 inline-flex h-7 items-center rounded border px-2.5 text-[13px] font-medium"
            href={`/api/calls/${call.callId}/transcript.pdf`}
            download
          >
            Transcript (PDF)
          </a>
        ) : null}
        {call.status === "live" ? (
          <span className="text-2xs text-muted">MP3 and PDF are offered once the call has ended.</span>
        ) : null}
      </div>
    </Section>
  );
}
