"use client";

import {
  memo,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/panel-state";
import { formatCount } from "@/lib/format";
import type { Segment } from "@/lib/schemas/calls";
import { formatClock, formatSentiment, sentimentTone, speakerLabel } from "./call-format";
import { InferredMark, type SpeakerNameView } from "./speaker-names";
import {
  findMatches,
  matchesBySegment,
  splitHighlights,
  stepMatch,
  type TranscriptMatch,
} from "./transcript-search";

export interface TranscriptHandle {
  /** Brings a sentence into view and stops following (the reader asked to look there). */
  reveal: (index: number) => void;
}

/** Sentences per hydration chunk (see the list below). */
const HYDRATION_CHUNK = 25;

function ChunkBoundary({ isFirst, children }: { isFirst: boolean; children: ReactNode }) {
  return isFirst ? <>{children}</> : <Suspense fallback={null}>{children}</Suspense>;
}

function chunkStarts(count: number): number[] {
  return Array.from({ length: Math.ceil(count / HYDRATION_CHUNK) }, (_, i) => i * HYDRATION_CHUNK);
}

const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);
const BOTTOM_SLACK_PX = 24;

/**
 * The call's transcript. Following: while live, the newest sentence stays in view; on a recording, the sentence
 * being heard does. Following stops the moment the reader scrolls (wheel, touch, keys, scrollbar) and a button brings
 * it back; scrolling back to the bottom of a live call resumes it too. New sentences are appended below, so while
 * not following nothing the reader looks at moves.
 *
 * Every sentence is in the DOM (and in the server's HTML), not windowed: the browser's find-in-page, text
 * selection and copy across sentences, and screen readers then see the whole call, which analysts rely on. Rows
 * use `content-visibility: auto`, so the browser skips layout and paint of rows out of view; that, not a JS
 * virtualizer, is what keeps an hour-long call (1,000+ sentences) cheap, and it costs no script.
 */
export function Transcript({
  segments,
  activeIndex,
  isLive,
  isPlaying,
  onSeek,
  marks,
  highlights,
  focusedSequence,
  fill = false,
  speakerNames,
  ref,
}: {
  segments: readonly Segment[];
  /** Names read from the call for voices enrichment has not named yet (shown marked as inferred). */
  speakerNames?: ReadonlyMap<string, SpeakerNameView>;
  /** The sentence being heard (-1: none). */
  activeIndex: number;
  /** Sentences to mark, by sequence, with why (insights: changed since the previous call). */
  marks?: ReadonlyMap<number, string>;
  /** Sentences the reader highlighted (their notes), by sequence. */
  highlights?: ReadonlySet<number>;
  /** The sentence a link pointed at (`?s=`): highlighted until the reader leaves the page. */
  focusedSequence?: number | null;
  isLive: boolean;
  isPlaying: boolean;
  onSeek: (ms: number) => void;
  /** At lg and wider, take the height the layout leaves (the call room fills the window) instead of a fixed one. */
  fill?: boolean;
  ref?: Ref<TranscriptHandle>;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [isFollowing, setIsFollowing] = useState(true);
  const userIntentAt = useRef(0);
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const [matchIndex, setMatchIndex] = useState(-1);

  const matches = useMemo(() => findMatches(segments, deferredQuery), [segments, deferredQuery]);
  const bySegment = useMemo(() => matchesBySegment(matches), [matches]);
  const currentMatch: TranscriptMatch | undefined = matches[matchIndex];

  /**
   * Scrolls a row into place. Rows out of view have an estimated height until they are rendered, so the position is
   * settled once more on the next frame, when the rows brought into view have their real height.
   */
  const scrollToRow = useCallback((index: number, align: "center" | "end" | "auto") => {
    const container = scrollRef.current;
    const row = container?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    if (!container || !row) return;
    const place = () => {
      const top = row.offsetTop;
      const height = row.offsetHeight;
      const view = container.clientHeight;
      let target: number;
      if (align === "end") target = top + height - view;
      else if (align === "center") target = top - (view - height) / 2;
      else if (top < container.scrollTop) target = top;
      else if (top + height > container.scrollTop + view) target = top + height - view;
      else return;
      container.scrollTop = Math.max(0, target);
    };
    place();
    requestAnimationFrame(place);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      reveal: (index: number) => {
        setIsFollowing(false);
        scrollToRow(index, "center");
      },
    }),
    [scrollToRow],
  );

  // Follow the newest sentence of a live call.
  const lastIndex = segments.length - 1;
  useEffect(() => {
    if (!isFollowing || !isLive || lastIndex < 0) return;
    scrollToRow(lastIndex, "end");
  }, [isFollowing, isLive, lastIndex, scrollToRow]);

  // Follow the sentence being heard in a recording.
  useEffect(() => {
    if (!isFollowing || isLive || !isPlaying || activeIndex < 0) return;
    scrollToRow(activeIndex, "auto");
  }, [isFollowing, isLive, isPlaying, activeIndex, scrollToRow]);

  const markUserIntent = useCallback(() => {
    userIntentAt.current = Date.now();
  }, []);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const isAtBottom = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
    if (Date.now() - userIntentAt.current > 400) return;
    if (isLive && isAtBottom) setIsFollowing(true);
    else setIsFollowing(false);
  }, [isLive]);

  const goToMatch = (index: number) => {
    setMatchIndex(index);
    const m = matches[index];
    if (m) {
      setIsFollowing(false);
      scrollToRow(m.segmentIndex, "center");
    }
  };

  const resumeFollowing = () => {
    setIsFollowing(true);
    if (isLive && lastIndex >= 0) scrollToRow(lastIndex, "end");
    else if (activeIndex >= 0) scrollToRow(activeIndex, "center");
  };

  const showResume = !isFollowing && (isLive || (isPlaying && activeIndex >= 0));

  return (
    <section
      aria-labelledby="transcript-heading"
      className={cn("flex min-w-0 flex-col gap-2", fill && "lg:min-h-0 lg:flex-1")}
    >
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id="transcript-heading" className="text-sm font-semibold">
          Transcript{" "}
          <span className="text-muted text-2xs font-normal tabular-nums">
            {formatCount(segments.length, "sentence")}
          </span>
        </h2>
        <form
          role="search"
          className="flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            goToMatch(stepMatch(matchIndex, matches.length, 1));
          }}
        >
          <label htmlFor="transcript-search" className="sr-only">
            Search the transcript
          </label>
          <Input
            id="transcript-search"
            type="search"
            placeholder="Search transcript"
            className="w-40 sm:w-56"
            value={query}
            onChange={(e) => {
              setQuery(e.currentTarget.value);
              setMatchIndex(-1);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter" && e.shiftKey) {
                e.preventDefault();
                goToMatch(stepMatch(matchIndex, matches.length, -1));
              } else if (e.key === "Escape") {
                setQuery("");
                setMatchIndex(-1);
              }
            }}
          />
          <span
            className="text-2xs text-muted min-w-14 text-center tabular-nums"
            aria-live="polite"
            data-testid="search-count"
          >
            {deferredQuery.trim().length >= 2
              ? `${matches.length === 0 ? 0 : Math.max(matchIndex + 1, 0)} / ${matches.length}`
              : ""}
          </span>
          <Button
            aria-label="Previous match"
            className="w-7 px-0"
            disabled={matches.length === 0}
            onClick={() => goToMatch(stepMatch(matchIndex, matches.length, -1))}
          >
            ↑
          </Button>
          <Button aria-label="Next match" className="w-7 px-0" type="submit" disabled={matches.length === 0}>
            ↓
          </Button>
        </form>
      </div>

      <div className={cn("relative", fill && "lg:min-h-0 lg:flex-1")}>
        <div
          ref={scrollRef}
          role="region"
          aria-label="Transcript sentences"
          tabIndex={0}
          data-testid="transcript"
          onScroll={onScroll}
          onWheel={markUserIntent}
          onTouchMove={markUserIntent}
          onPointerDown={markUserIntent}
          onKeyDown={(e) => {
            if (SCROLL_KEYS.has(e.key)) markUserIntent();
          }}
          className={cn(
            "border-line relative h-[60vh] min-h-64 overflow-y-auto rounded border",
            fill ? "lg:h-full lg:min-h-0" : "lg:h-[min(68vh,760px)]",
          )}
        >
          {segments.length === 0 ? (
            <EmptyState
              title={isLive ? "Waiting for the first sentence" : "No transcript"}
              hint={
                isLive
                  ? "Sentences appear here as they are spoken."
                  : "The market-data service has no transcript for this call."
              }
            />
          ) : (
            <ol className="w-full">
              {chunkStarts(segments.length).map((from) => (
                // A boundary per chunk after the first: the browser hydrates the server's rows chunk by chunk, in
                // short tasks, instead of one long one that freezes the page while an hour-long call hydrates. The
                // first chunk (the transcript's first screen) has none: React streams a boundary of a page this size
                // as a separate chunk that it reveals at least 300 ms after the first paint, and the first
                // sentences, often the page's largest text, belong in that paint.
                <ChunkBoundary key={from} isFirst={from === 0}>
                  {segments.slice(from, from + HYDRATION_CHUNK).map((segment, offset) => {
                    const index = from + offset;
                    const previous = index > 0 ? segments[index - 1] : undefined;
                    return (
                      <li
                        key={segment.sequence}
                        data-index={index}
                        className="[contain-intrinsic-size:auto_48px] [content-visibility:auto]"
                      >
                        <SentenceRow
                          segment={segment}
                          inferredName={
                            segment.speakerName ? undefined : speakerNames?.get(segment.speaker)?.name
                          }
                          showSpeaker={
                            !previous ||
                            previous.speaker !== segment.speaker ||
                            previous.speakerName !== segment.speakerName
                          }
                          isActive={index === activeIndex}
                          matches={bySegment.get(index)}
                          currentMatch={currentMatch?.segmentIndex === index ? matchIndex : -1}
                          onSeek={onSeek}
                          mark={marks?.get(segment.sequence)}
                          isHighlighted={highlights?.has(segment.sequence) ?? false}
                          isFocused={segment.sequence === focusedSequence}
                        />
                      </li>
                    );
                  })}
                </ChunkBoundary>
              ))}
            </ol>
          )}
        </div>
        {showResume ? (
          <Button variant="primary" className="absolute right-3 bottom-3 shadow-lg" onClick={resumeFollowing}>
            {isLive ? "↓ Jump to live" : "↓ Follow audio"}
          </Button>
        ) : null}
      </div>
    </section>
  );
}

const SentenceRow = memo(function SentenceRow({
  segment,
  inferredName,
  showSpeaker,
  isActive,
  matches,
  currentMatch,
  onSeek,
  mark,
  isFocused = false,
  isHighlighted = false,
}: {
  segment: Segment;
  /** The voice's name read from the call while enrichment has not named it. */
  inferredName?: string;
  mark?: string;
  isFocused?: boolean;
  isHighlighted?: boolean;
  showSpeaker: boolean;
  isActive: boolean;
  matches: (TranscriptMatch & { index: number })[] | undefined;
  currentMatch: number;
  onSeek: (ms: number) => void;
}) {
  const parts = splitHighlights(segment.text, matches ?? []);
  const tone = sentimentTone(segment.sentiment);
  return (
    <div
      data-testid="transcript-sentence"
      data-sequence={segment.sequence}
      data-start-ms={segment.startMs}
      aria-current={isActive ? "true" : undefined}
      data-focused={isFocused || undefined}
      data-highlighted={isHighlighted || undefined}
      className={cn(
        "grid grid-cols-[3.5rem_1fr_3.25rem] gap-x-2 border-l-2 px-2 py-1 text-[13px] leading-5",
        isActive ? "border-accent bg-accent-soft" : "hover:bg-surface border-transparent",
        isFocused && !isActive && "border-warn bg-warn-soft",
        isHighlighted && !isActive && !isFocused && "border-accent/60 bg-accent-soft/40",
        showSpeaker && "pt-2",
      )}
      onClick={() => {
        // Selecting text to copy must not jump the audio.
        if (window.getSelection()?.toString()) return;
        onSeek(segment.startMs);
      }}
    >
      <button
        type="button"
        className="text-muted hover:text-fg self-start text-left text-xs tabular-nums"
        aria-label={`Play from ${formatClock(segment.startMs / 1000)}`}
        onClick={(e) => {
          e.stopPropagation();
          onSeek(segment.startMs);
        }}
      >
        {formatClock(segment.startMs / 1000)}
      </button>
      <div className="min-w-0 cursor-pointer">
        {showSpeaker ? (
          <p
            className="text-2xs text-muted font-semibold tracking-wide uppercase"
            data-testid="transcript-speaker"
          >
            {inferredName ?? speakerLabel(segment)}
            {inferredName ? <InferredMark /> : null}
          </p>
        ) : null}
        <p>
          {parts.map((part, i) =>
            part.matchIndex === null ? (
              <span key={i}>{part.text}</span>
            ) : (
              <mark
                key={i}
                data-testid="search-hit"
                className={cn(
                  "bg-warn-soft text-fg rounded-sm",
                  part.matchIndex === currentMatch && "outline-warn outline-2",
                )}
                aria-current={part.matchIndex === currentMatch ? "true" : undefined}
              >
                {part.text}
              </mark>
            ),
          )}
          {mark ? (
            <span
              data-testid="sentence-changed"
              title={mark}
              className="text-2xs border-warn/50 text-warn ml-1.5 rounded border px-1 whitespace-nowrap"
            >
              <span className="sr-only">{mark}. </span>
              <span aria-hidden>changed</span>
            </span>
          ) : null}
        </p>
      </div>
      {/* Per sentence, only where the words carry a view: a column of "0.00"s would be noise. */}
      <span
        data-testid="sentence-sentiment"
        className={cn(
          "text-2xs self-end text-right tabular-nums",
          tone === "pos" && "text-pos",
          tone === "neg" && "text-neg",
        )}
        title={
          segment.sentiment === null
            ? undefined
            : `Sentiment ${formatSentiment(segment.sentiment)} (${segment.sentimentSource === "enriched" ? "enriched" : "live estimate"})`
        }
      >
        {tone === "neutral" ? null : `${tone === "pos" ? "▲" : "▼"} ${formatSentiment(segment.sentiment)}`}
      </span>
    </div>
  );
});
