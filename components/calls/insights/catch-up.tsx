"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { alertQueries } from "@/lib/queries/alerts";
import type { Insights } from "@/lib/schemas/insights";
import { formatClock } from "../call-format";
import { catchUpCount, catchUpItems, readSeen, writeSeen } from "./catch-up-items";
import {
  changeSummary,
  CHANGE_LABELS,
  consensusPhrase,
  distinctFigures,
  figureName,
  formatFigure,
} from "@/lib/figure-format";

const storage = () => (typeof window === "undefined" ? undefined : window.sessionStorage);

/**
 * The sentence the reader left at, when they come back to a live call after being away: in another tab (the page
 * was hidden) or on another page of this tab (the last sentence seen is kept per call in session storage).
 */
function useAwaySince(callId: string, lastSequence: number, isLive: boolean) {
  const [since, setSince] = useState<number | null>(null);
  const last = useRef(lastSequence);
  const hiddenAt = useRef<number | null>(null);

  useEffect(() => {
    if (!isLive) return;
    const seen = readSeen(callId, storage());
    // Only once, when the page opens: the transcript already holds what was said meanwhile.
    if (seen !== null && seen < last.current) setSince(seen);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on arrival only
  }, [callId]);

  useEffect(() => {
    last.current = lastSequence;
    if (document.visibilityState === "visible") writeSeen(callId, lastSequence, storage());
  }, [callId, lastSequence]);

  useEffect(() => {
    if (!isLive) return;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        hiddenAt.current = last.current;
        return;
      }
      const at = hiddenAt.current;
      hiddenAt.current = null;
      if (at !== null && last.current > at) setSince((prev) => (prev === null ? at : Math.min(prev, at)));
      writeSeen(callId, last.current, storage());
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [callId, isLive]);

  return { since, dismiss: () => setSince(null) };
}

export function CatchUpBanner({
  callId,
  insights,
  lastSequence,
  isLive,
  onSeek,
}: {
  callId: string;
  insights: Insights;
  lastSequence: number;
  isLive: boolean;
  onSeek: (sequence: number) => void;
}) {
  const { since, dismiss } = useAwaySince(callId, lastSequence, isLive);
  // Only once there is something to catch up on; an inbox that cannot be read (signed out, no database) adds nothing.
  const inbox = useQuery({ ...alertQueries.inbox(), enabled: since !== null, retry: false });
  if (since === null) return null;
  const items = catchUpItems(insights, since, inbox.data?.data ?? [], callId);
  if (catchUpCount(items) === 0) return null;
  const missed = lastSequence - since;
  return (
    <section
      aria-labelledby="catch-up-heading"
      data-testid="catch-up"
      className="border-accent/40 bg-accent-soft rounded border px-3 py-2 text-[13px]"
    >
      <div className="flex items-center gap-2">
        <h2 id="catch-up-heading" className="font-semibold">
          While you were away
        </h2>
        <span className="text-2xs text-muted">
          {missed} {missed === 1 ? "sentence" : "sentences"}
        </span>
        <Button className="ml-auto" onClick={dismiss}>
          Dismiss
        </Button>
      </div>
      <ul className="mt-1 flex flex-col gap-0.5">
        {distinctFigures(items.figures).map(({ figure: f }) => (
          <CatchUpItem key={f.id} at={f.startMs} onClick={() => onSeek(f.sequence)}>
            <span className="font-medium">{figureName(f)}</span> {formatFigure(f)}
            {consensusPhrase(f) ? <span className="text-muted"> · {consensusPhrase(f)}</span> : null}
          </CatchUpItem>
        ))}
        {items.changes.map((c) => (
          <CatchUpItem key={c.id} at={c.startMs ?? 0} onClick={() => onSeek(c.sequence!)}>
            <span className="font-medium">{CHANGE_LABELS[c.kind]}</span> {changeSummary(c)}
          </CatchUpItem>
        ))}
        {items.alerts.map((a) => (
          <CatchUpItem key={a.id} at={a.startMs ?? 0} onClick={() => onSeek(a.sequence!)}>
            <span className="font-medium">Alert</span> <span className="text-muted">{a.text}</span>
          </CatchUpItem>
        ))}
        {items.questions.map((q) => (
          <CatchUpItem
            key={q.sequence}
            at={q.startMs}
            onClick={() => onSeek(q.questionSequence ?? q.sequence)}
          >
            <span className="font-medium">Question</span> from {q.analyst ?? "an analyst"}
            {q.firm ? ` (${q.firm})` : ""}
            {q.question ? <span className="text-muted">: {q.question}</span> : null}
          </CatchUpItem>
        ))}
      </ul>
    </section>
  );
}

function CatchUpItem({
  at,
  onClick,
  children,
}: {
  at: number;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <li>
      <button type="button" className="hover:text-accent w-full truncate text-left" onClick={onClick}>
        <span className="text-2xs text-muted mr-2 tabular-nums">{formatClock(at / 1000)}</span>
        {children}
      </button>
    </li>
  );
}
