"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { Badge } from "@/components/ui/badge";
import { Section } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/panel-state";
import type { Change, PreviousCall } from "@/lib/schemas/insights";
import { formatClock } from "../call-format";
import { CHANGE_LABELS, changeSummary, changeTone, groupChanges } from "@/lib/figure-format";

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
        // A call can change dozens of statements; the list scrolls rather than push the Q&A off the page.
        <ul
          className="flex max-h-[34rem] flex-col gap-2 overflow-y-auto pr-1"
          data-testid="changes-list"
          tabIndex={0}
          aria-label={`${changes.length} changes since the previous call`}
        >
          {groupChanges(changes).map((group) => (
            <ChangeRow
              key={group[0]!.id}
              group={group}
              previousCallId={previousCall.callId}
              onSeek={onSeek}
            />
          ))}
        </ul>
      )}
    </Section>
  );
}

function ChangeRow({
  group,
  previousCallId,
  onSeek,
}: {
  group: Change[];
  previousCallId: string;
  onSeek: (sequence: number) => void;
}) {
  const c = group[0]!;
  return (
    <li
      className="border-line border-b pb-2 text-[13px] last:border-b-0"
      data-testid="change"
      data-kind={c.kind}
    >
      {group.map((one) => {
        const tone = changeTone(one.kind);
        return (
          <div key={one.id} className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-0.5">
            <Badge tone={tone}>
              <span aria-hidden className="mr-1">
                {tone === "pos" ? "▲" : tone === "neg" ? "▼" : "•"}
              </span>
              {CHANGE_LABELS[one.kind]}
            </Badge>
            <span className="font-medium tabular-nums">{changeSummary(one)}</span>
          </div>
        );
      })}
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Quote label="Last quarter" text={c.previousText}>
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
        <Quote label="This call" text={c.text}>
          {c.sequence !== null && c.startMs !== null ? (
            <button
              type="button"
              className="text-accent text-2xs hover:underline"
              data-testid="change-seek"
              data-seek-sequence={c.sequence!}
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

function Quote({ label, text, children }: { label: string; text: string | null; children: React.ReactNode }) {
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
