"use client";

import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/panel-state";
import type { Qa } from "@/lib/schemas/insights";
import { formatClock, formatSentiment, sentimentTone } from "../call-format";
import { InferredMark } from "../speaker-names";

/** The Q&A at a glance: each analyst's turn (click to hear it) and each speaker's tone. */
export function QaPanel({
  qa,
  isLive,
  onSeek,
}: {
  qa: Qa;
  isLive: boolean;
  onSeek: (sequence: number) => void;
}) {
  const speakers = qa.speakers.filter((s) => s.role !== "operator");
  const inferred = new Set(qa.speakers.filter((s) => s.nameInferred && s.name).map((s) => s.name!));
  return (
    <Section
      title="Q&A"
      id="qa"
      actions={
        <span className="text-2xs text-muted" data-testid="qa-phase">
          {qa.qaStartSequence === null
            ? "prepared remarks"
            : `${qa.turns.length} ${qa.turns.length === 1 ? "question" : "questions"}`}
        </span>
      }
    >
      {qa.turns.length === 0 ? (
        <EmptyState
          className="py-4"
          title={qa.qaStartSequence === null ? "Prepared remarks" : "No question yet"}
          hint={
            isLive
              ? "Each analyst's question appears here once the operator introduces them."
              : "This call had no Q&A."
          }
        />
      ) : (
        <ol className="flex flex-col" data-testid="qa-list">
          {qa.turns.map((t) => {
            const tone = sentimentTone(t.answerSentiment);
            return (
              <li key={t.sequence}>
                <button
                  type="button"
                  data-testid="qa-turn"
                  data-sequence={t.sequence}
                  data-seek-sequence={t.questionSequence ?? t.sequence}
                  className="hover:bg-surface flex w-full flex-col gap-0.5 rounded px-1.5 py-1 text-left text-[13px]"
                  onClick={() => onSeek(t.questionSequence ?? t.sequence)}
                >
                  <span className="flex flex-wrap items-baseline gap-x-2">
                    <span className="font-semibold" data-testid="qa-analyst">
                      {t.analyst ?? t.speaker ?? "Analyst"}
                    </span>
                    {t.firm ? <span className="text-muted text-2xs">{t.firm}</span> : null}
                    <span className="text-2xs text-muted ml-auto tabular-nums">
                      {formatClock(t.startMs / 1000)}
                    </span>
                  </span>
                  <span className={cn("line-clamp-2", t.question === null && "text-muted italic")}>
                    {t.question ?? "Waiting for the question…"}
                  </span>
                  {t.answerSentences > 0 ? (
                    <span className="text-2xs text-muted flex flex-wrap gap-x-2">
                      <span data-testid="qa-answered-by">
                        answered by{" "}
                        {t.answeredBy.map((name, i) => (
                          <span key={name}>
                            {i > 0 ? ", " : ""}
                            {name}
                            {inferred.has(name) ? <InferredMark /> : null}
                          </span>
                        ))}
                      </span>
                      <span className="tabular-nums">
                        {t.answerWords} words · {formatClock(t.answerMs / 1000)}
                      </span>
                      <span
                        className={cn(
                          "tabular-nums",
                          tone === "pos" && "text-pos",
                          tone === "neg" && "text-neg",
                        )}
                      >
                        {tone === "pos" ? "▲ " : tone === "neg" ? "▼ " : ""}
                        {formatSentiment(t.answerSentiment)}
                      </span>
                    </span>
                  ) : null}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {speakers.length > 0 ? (
        <details className="mt-2">
          <summary className="text-2xs text-muted cursor-pointer">Sentiment by speaker</summary>
          <table className="mt-1 w-full text-[13px]" data-testid="speaker-sentiment">
            <tbody>
              {speakers.map((s) => {
                const tone = sentimentTone(s.sentiment);
                return (
                  <tr key={s.speaker} className="border-line border-b last:border-b-0">
                    <td className="py-0.5 pr-2">
                      {s.name ?? s.speaker}
                      {s.name && s.nameInferred ? <InferredMark /> : null}
                      <span className="text-2xs text-muted">
                        {" "}
                        · {s.role}
                        {s.firm ? `, ${s.firm}` : ""}
                      </span>
                    </td>
                    <td className="text-2xs text-muted py-0.5 text-right tabular-nums">{s.sentences}</td>
                    <td
                      className={cn(
                        "py-0.5 pl-2 text-right tabular-nums",
                        tone === "pos" && "text-pos",
                        tone === "neg" && "text-neg",
                      )}
                    >
                      {formatSentiment(s.sentiment)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </details>
      ) : null}
    </Section>
  );
}
