"use client";

import { useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { TOAST_CORNER } from "@/components/alerts/toast-corner";
import { parseAsInteger, useQueryState } from "nuqs";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { isTypingTarget, useHotkeys } from "@/components/shell/use-hotkeys";
import { Kbd } from "@/components/ui/kbd";
import { cn } from "@/components/ui/cn";
import { ErrorState, StaleNote } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { LocalTime } from "@/components/ui/local-time";
import { useLiveStream } from "@/lib/live/use-live-stream";
import { callQueries, type CallEnvelope } from "@/lib/queries/calls";
import { AudioPlayer } from "./audio-player";
import { SentimentPanel } from "./sentiment-panel";
import { CallStatusBadge } from "./call-status-badge";
import { Elapsed } from "./elapsed";
import { StreamIndicator } from "./stream-indicator";
import { Transcript, type TranscriptHandle } from "./transcript";
import { segmentIndexAt } from "./transcript-search";
import { useCallAudio } from "./use-call-audio";
import { changedSentences } from "./insights/changed-sentences";
import { useCallInsights } from "./insights/use-call-insights";
import { speakerNamesOf } from "./speaker-names";
import type { CallNotesHandle } from "@/components/notes/call-notes";
import { Tabs } from "@/components/ui/tabs";
import { noteQueries } from "@/lib/queries/notes";
import { useNoteHighlights } from "@/components/notes/use-note-highlights";

/*
 * What the first screen does not need at once is fetched once the room is up rather than with its first load
 * (docs/performance.md, First-load JS): the notes (their tab is not the first; they are still server-rendered, and
 * `n` waits for them), the catch-up banner (only for a reader coming back to a live call), and the insight panels
 * under the sentiment chart and the other tabs' panels (server-rendered too; they take clicks once their code is
 * there).
 */
const CallNotes = lazy(() => import("@/components/notes/call-notes").then((m) => ({ default: m.CallNotes })));
const panels = () => import("./call-side-panels");
const SummaryPanel = lazy(() => panels().then((m) => ({ default: m.SummaryPanel })));
const ParticipantsPanel = lazy(() => panels().then((m) => ({ default: m.ParticipantsPanel })));
const DownloadsPanel = lazy(() => panels().then((m) => ({ default: m.DownloadsPanel })));
const InsightsPanels = lazy(() =>
  import("./insights/insights-panels").then((m) => ({ default: m.InsightsPanels })),
);
const CatchUpBanner = lazy(() => import("./insights/catch-up").then((m) => ({ default: m.CatchUpBanner })));
import { FollowButton } from "@/components/watchlists/follow-button";

type SideTab = "insights" | "summary" | "notes" | "export";
const SIDE_TAB_KEY = "callroom:call-side-tab";
const SIDE_TABS: readonly SideTab[] = ["insights", "summary", "notes", "export"];

/** The side column's tab, kept across calls in this browser (an analyst who works in Notes stays there). */
function useSideTab(): [SideTab, (tab: SideTab) => void] {
  const [tab, setTab] = useState<SideTab>("insights");
  useEffect(() => {
    const saved = window.localStorage.getItem(SIDE_TAB_KEY);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- read once after hydration, so the HTML and hydration agree
    if (saved && (SIDE_TABS as readonly string[]).includes(saved)) setTab(saved as SideTab);
  }, []);
  return [
    tab,
    (next) => {
      setTab(next);
      try {
        window.localStorage.setItem(SIDE_TAB_KEY, next);
      } catch {
        // Private windows may refuse storage; the tab still switches.
      }
    },
  ];
}

/** Space is "press this" on buttons, links and sliders; everywhere else in the call room it plays and pauses. */
function spaceBelongsToTarget(target: EventTarget | null): boolean {
  if (isTypingTarget(target)) return true;
  return (
    target instanceof HTMLElement &&
    target.closest("button,a,input,select,textarea,[role=button],[role=slider]") !== null
  );
}

export function CallRoom({ callId, initial }: { callId: string; initial: CallEnvelope | null }) {
  const query = useQuery({ ...callQueries.detail(callId), initialData: initial ?? undefined });
  if (query.data) return <CallRoomLoaded envelope={query.data} isRefetching={query.isFetching} />;
  if (query.isError) {
    return (
      <ErrorState
        title="Could not load this call"
        message={query.error instanceof Error ? query.error.message : undefined}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <CallRoomSkeleton />;
}

function CallRoomLoaded({ envelope, isRefetching }: { envelope: CallEnvelope; isRefetching: boolean }) {
  const call = envelope.data;
  const isLive = call.status === "live";
  const [t] = useQueryState("t", parseAsInteger);
  // `?s=` names the sentence (lib/call-links.ts): cue the audio at its exact start, else at `?t=` seconds.
  const [s] = useQueryState("s", parseAsInteger);
  const linkedSegment = s === null ? undefined : call.segments.find((segment) => segment.sequence === s);
  const startAtMs = linkedSegment ? linkedSegment.startMs : t !== null && t >= 0 ? t * 1000 : null;
  const stream = useLiveStream(
    call.status === "enriched" ? null : { calls: [call.callId] },
    call.streamCursor,
  );
  const audio = useCallAudio(
    call.callId,
    {
      hasAudio: call.hasAudio,
      hasMp3: call.hasMp3,
      isLive,
      durationMs: call.durationSeconds === null ? null : call.durationSeconds * 1000,
    },
    startAtMs,
  );
  const transcriptRef = useRef<TranscriptHandle>(null);
  const [copied, setCopied] = useState(false);

  const hasPosition = audio.state.isPlaying || audio.state.currentMs > 0;
  const activeIndex = hasPosition ? segmentIndexAt(call.segments, audio.state.currentMs) : -1;

  // A link to a moment: show the sentence there once the transcript holds it.
  const revealedDeepLink = useRef(false);
  const deepLinkIndex = useMemo(() => {
    if (s !== null) {
      const index = call.segments.findIndex((segment) => segment.sequence === s);
      if (index >= 0) return index;
    }
    return startAtMs === null ? -1 : segmentIndexAt(call.segments, startAtMs);
  }, [call.segments, s, startAtMs]);
  useEffect(() => {
    if (revealedDeepLink.current || deepLinkIndex < 0) return;
    revealedDeepLink.current = true;
    transcriptRef.current?.reveal(deepLinkIndex);
  }, [deepLinkIndex]);

  const { seek, toggle, playFrom } = audio;

  const insights = useCallInsights(call);
  const changedMarks = useMemo(() => changedSentences(insights.insights), [insights.insights]);
  // Names read from the call while live (introductions, hand-offs), marked as inferred until enrichment.
  const speakerNames = useMemo(() => speakerNamesOf(insights.insights.qa), [insights.insights.qa]);
  const noteHighlights = useNoteHighlights(call.callId);
  const seekSequence = (sequence: number) => {
    const index = call.segments.findIndex((s) => s.sequence === sequence);
    const segment = call.segments[index];
    if (!segment) return;
    transcriptRef.current?.reveal(index);
    seek(segment.startMs);
  };
  const lastSequence = call.segments[call.segments.length - 1]?.sequence ?? -1;

  const notesRef = useRef<CallNotesHandle>(null);
  const [sideTab, setSideTab] = useSideTab();
  const notes = useQuery(noteQueries.call(call.callId));
  const noteCount = notes.data?.data.length ?? 0;
  const currentMs = audio.state.currentMs;
  useHotkeys((event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "n" && !isTypingTarget(event.target)) {
      // The note box, pinned to this moment; the transcript stays where it is.
      event.preventDefault();
      setSideTab("notes");
      const at = hasPosition ? currentMs : (call.segments.at(-1)?.startMs ?? 0);
      // Should the notes' code still be on its way, the box opens as soon as it is there (for about 5 s).
      const start = (tries: number) => {
        if (notesRef.current) notesRef.current.startAt(at);
        else if (tries > 0) setTimeout(() => start(tries - 1), 50);
      };
      requestAnimationFrame(() => start(100));
      return;
    }
    if (event.key !== " ") return;
    if (spaceBelongsToTarget(event.target)) return;
    event.preventDefault();
    toggle();
  });

  const copyMoment = () => {
    const url = new URL(window.location.href);
    url.searchParams.set("t", String(Math.floor(audio.state.currentMs / 1000)));
    void navigator.clipboard?.writeText(url.toString()).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      },
      () => window.prompt("Copy this link", url.toString()),
    );
  };

  return (
    <div
      className="flex flex-col gap-3 lg:h-[calc(100dvh-4.75rem)] lg:min-h-[34rem]"
      data-testid="call-room"
      data-status={call.status}
    >
      {/* At lg the right end of the header is the toasts' place (components/alerts/alert-toasts.tsx). */}
      <header className={cn("flex shrink-0 flex-col gap-1", TOAST_CORNER)}>
        <div className="text-2xs text-muted flex flex-wrap items-center gap-x-2">
          <IntentLink href="/calls" className="hover:text-fg hover:underline">
            Calls
          </IntentLink>
          <span aria-hidden>/</span>
          <IntentLink
            href={`/companies/${encodeURIComponent(call.symbol)}`}
            className="hover:text-fg font-semibold hover:underline"
          >
            {call.symbol}
          </IntentLink>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h1 className="text-lg font-semibold tracking-tight">{call.title}</h1>
          <span data-testid="call-status">
            <CallStatusBadge status={call.status} />
          </span>
          <FollowButton symbol={call.symbol} shortcut />
          <span className="text-[13px]">
            <span className="text-muted">{isLive ? "Elapsed " : "Duration "}</span>
            <Elapsed
              startTime={call.startTime}
              endTime={call.endTime}
              durationSeconds={call.durationSeconds}
              isLive={isLive}
              className="font-semibold tabular-nums"
            />
          </span>
          {isLive || call.status === "completed" ? <StreamIndicator status={stream} /> : null}
        </div>
        {call.headline ? (
          <p className="line-clamp-2 text-[13px] leading-5" data-testid="call-headline">
            {call.headline}
          </p>
        ) : null}
        <p className="text-2xs text-muted">
          {call.name}
          {call.period ? ` · ${call.period}${call.year ? ` ${call.year}` : ""}` : ""} · started{" "}
          <LocalTime value={call.startTime} />
          {call.endTime ? (
            <>
              {" "}
              · ended <LocalTime value={call.endTime} />
            </>
          ) : null}
          {isRefetching ? <span className="sr-only"> (updating)</span> : null}
        </p>
        {envelope.meta.stale ? <StaleNote fetchedAt={envelope.meta.fetchedAt} /> : null}
      </header>

      <Suspense fallback={null}>
        <CatchUpBanner
          callId={call.callId}
          insights={insights.insights}
          lastSequence={lastSequence}
          isLive={isLive}
          onSeek={seekSequence}
        />
      </Suspense>

      {/*
        At lg and wider the room fills the window: the player and the transcript keep their place while the side
        column's tabs switch and scroll on their own, so reading a panel or writing a note never moves the transcript.
      */}
      <div className="grid grid-cols-1 gap-4 lg:min-h-0 lg:flex-1 lg:grid-cols-[minmax(0,1fr)_minmax(340px,420px)]">
        <div className="flex min-w-0 flex-col gap-3 lg:min-h-0" data-testid="call-room-main">
          <AudioPlayer audio={audio} />
          <Transcript
            ref={transcriptRef}
            segments={call.segments}
            activeIndex={activeIndex}
            isLive={isLive}
            isPlaying={audio.state.isPlaying}
            onSeek={playFrom}
            marks={changedMarks}
            highlights={noteHighlights}
            focusedSequence={s}
            speakerNames={speakerNames}
            fill
          />
        </div>
        <aside
          className="flex min-w-0 flex-col lg:min-h-0"
          aria-label="About this call"
          data-testid="call-side"
        >
          <Tabs
            label="Call panels"
            selected={sideTab}
            onSelect={setSideTab}
            className="lg:min-h-0 lg:flex-1"
            panelClassName="lg:min-h-0 lg:flex-1 lg:overflow-y-auto lg:pr-1"
            items={[
              {
                key: "insights",
                label: "Insights",
                panel: (
                  <div className="flex flex-col gap-5">
                    <SentimentPanel
                      segments={call.segments}
                      status={call.status}
                      playheadSeconds={hasPosition ? audio.state.currentMs / 1000 : null}
                    />
                    <Suspense fallback={<Skeleton className="h-64 w-full" />}>
                      <InsightsPanels state={insights} isLive={isLive} onSeek={seekSequence} />
                    </Suspense>
                  </div>
                ),
              },
              {
                key: "summary",
                label: "Summary",
                panel: (
                  <Suspense fallback={null}>
                    <div className="flex flex-col gap-5">
                      <SummaryPanel
                        call={call}
                        onJump={(index) => {
                          const segment = call.segments[index];
                          if (!segment) return;
                          transcriptRef.current?.reveal(index);
                          seek(segment.startMs);
                        }}
                      />
                      <ParticipantsPanel call={call} speakerNames={speakerNames} />
                    </div>
                  </Suspense>
                ),
              },
              {
                key: "notes",
                label: (
                  <>
                    Notes
                    {noteCount > 0 ? (
                      <span className="bg-surface-2 text-2xs rounded px-1 tabular-nums">{noteCount}</span>
                    ) : null}
                    <Kbd className="max-sm:hidden">n</Kbd>
                  </>
                ),
                ariaLabel: noteCount > 0 ? `Notes, ${noteCount}` : "Notes",
                panel: (
                  <Suspense fallback={null}>
                    <CallNotes
                      ref={notesRef}
                      callId={call.callId}
                      segments={call.segments}
                      currentMs={audio.state.currentMs}
                      activeIndex={activeIndex}
                      onSeek={(ms) => {
                        transcriptRef.current?.reveal(segmentIndexAt(call.segments, ms));
                        seek(ms);
                      }}
                    />
                  </Suspense>
                ),
              },
              {
                key: "export",
                label: "Share",
                panel: (
                  <Suspense fallback={null}>
                    <DownloadsPanel call={call} onCopyMoment={copyMoment} copied={copied} />
                  </Suspense>
                ),
              },
            ]}
          />
        </aside>
      </div>
    </div>
  );
}

/** The call room's final shape, so nothing moves when it loads. */
export function CallRoomSkeleton() {
  return (
    <div className="flex flex-col gap-3" role="status" aria-label="Loading the call" aria-busy>
      <div className="flex flex-col gap-1.5">
        <Skeleton className="h-3 w-24" />
        <Skeleton className="h-6 w-80 max-w-full" />
        <Skeleton className="h-3 w-64 max-w-full" />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(300px,400px)]">
        <div className="flex flex-col gap-3">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-7 w-full" />
          <div className="border-line flex h-[60vh] min-h-64 flex-col gap-3 rounded border p-3 lg:h-[min(68vh,760px)]">
            {Array.from({ length: 10 }, (_, i) => (
              <div key={i} className="grid grid-cols-[3.5rem_1fr] gap-2">
                <Skeleton className="h-3 w-10" />
                <Skeleton className={i % 3 === 0 ? "h-3 w-2/3" : "h-3 w-full"} />
              </div>
            ))}
          </div>
        </div>
        <div className="flex flex-col gap-5">
          <Skeleton className="h-[180px] w-full" />
          <Skeleton className="h-32 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      </div>
    </div>
  );
}
