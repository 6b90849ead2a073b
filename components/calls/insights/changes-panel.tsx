"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { Badge } from "@/components/ui/badge";
import { Section } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/panel-state";
import type { Change, PreviousCall } from "@/lib/schemas/insights";
import { formatClock } from "../call-format";
import { CHANGE_LABELS, changeSummary, changeTone } from "./insight-format";

/**
 * What changed since the previous call, each with both quotes side by side: this call's sentence seeks the audio,
 * the previous call's opens that call at its moment.
 */
export function ChangesPanel({
  changes,
  previousCall,
  isContextLoading,
  isLive,
  onSeek,
}: {
  changes: readonly Change[];
  previousCall: PreviousCall | null;
  isContextLoading: boolean;
  isLive: boolean;
  onSeek: (sequence: number) => void;
}) {
  return (
    <Section
      title="Changes since last quarter"
      id="changes"
      actions={
        previousCall ? (
          <IntentLink
            href={`/calls/${previousCall.callId}`}
            className="text-2xs text-muted hover:text-fg hover:underline"
          >
            vs{" "}
            {previousCall.period
              ? `${previousCall.period} ${previousCall.year ?? ""}`.trim()
              : "previous call"}
          </IntentLink>
        ) : null
      }
    >
      {isContextLoading ? (
        <p className="text-2xs text-muted py-2">Finding the previous call…</p>
      ) : !previousCall ? (
        <EmptyState
          className="py-4"
          title="No previous call to compare with"
          hint="This company has no earlier call on record."
        />
      ) : changes.length === 0 ? (
        <EmptyState
          className="py-4"
          title="Nothing changed yet"
          hint={
            isLive
              ? "Changed figures, softer or stronger words and new topics appear as they are spoken."
              : "No statement differs from the previous call."
          }
        />
      ) : (
        <ul className="flex flex-col gap-2" data-testid="changes-list">
          {changes.map((c) => (
            <ChangeRow key={c.id} change={c} previousCallId={previousCall.callId} onSeek={onSeek} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function ChangeRow({
  change: c,
  previousCallId,
  onSeek,
}: {
  change: Change;
  previousCallId: string;
  onSeek: (sequence: number) => void;
}) {
  const tone = changeTone(c.kind);
  return (
    <li
      className="border-line border-b pb-2 text-[13px] last:border-b-0"
      data-testid="change"
      data-kind={c.kind}
    >
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <Badge tone={tone}>
          <span aria-hidden className="mr-1">
            {tone === "pos" ? "▲" : tone === "neg" ? "▼" : "•"}
          </span>
          {CHANGE_LABELS[c.kind]}
        </Badge>
        <span className="font-medium">{changeSummary(c)}</span>
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Quote label="Last quarter" text={c.previousText} at={c.previousStartMs}>
          {c.previousText !== null && c.previousStartMs !== null ? (
            <IntentLink
              href={`/calls/${previousCallId}?t=${Math.floor(c.previousStartMs / 1000)}`}
              className="text-accent text-2xs hover:underline"
              data-testid="change-previous-link"
            >
              open at {formatClock(c.previousStartMs / 1000)}
            </IntentLink>
          ) : null}
        </Quote>
        <Quote label="This call" text={c.text} at={c.startMs}>
          {c.sequence !== null && c.startMs !== null ? (
            <button
              type="button"
              className="text-accent text-2xs hover:underline"
              data-testid="change-seek"
              onClick={() => onSeek(c.sequence!)}
            >
              play {formatClock(c.startMs / 1000)}
            </button>
          ) : null}
        </Quote>
      </div>
    </li>
  );
}

function Quote({
  label,
  text,
  children,
}: {
  label: string;
  text: string | null;
  at: number | null;
  children: React.ReactNode;
}) {
  return (
    <figure className="bg-surface min-w-0 rounded px-2 py-1.5">
      <figcaption className="text-2xs text-muted mb-0.5 flex items-center justify-between gap-2">
        <span className="font-semibold tracking-wide uppercase">{label}</span>
        {children}
      </figcaption>
      <blockquote className={text === null ? "text-muted italic" : undefined}>
        {text ?? (label === "This call" ? "Not mentioned on this call." : "Not mentioned last quarter.")}
      </blockquote>
    </figure>
  );
}
