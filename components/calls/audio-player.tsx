"use client";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Kbd } from "@/components/ui/kbd";
import { formatClock } from "./call-format";
import type { CallAudio } from "./use-call-audio";

/** Transport for the call's audio: play/pause, position, "go live" while the call is live. */
export function AudioPlayer({ audio, className }: { audio: CallAudio; className?: string }) {
  const { state, audioRef, toggle, seek, goLive, isLive } = audio;
  const isAvailable = state.kind !== "none";
  const endMs = state.endMs ?? 0;
  return (
    <div
      className={cn(
        "border-line bg-surface flex flex-wrap items-center gap-2 rounded border px-2 py-1.5",
        className,
      )}
      role="group"
      aria-label="Call audio"
    >
      <audio ref={audioRef} preload="metadata" data-testid="call-audio" className="hidden" />
      <Button
        variant="primary"
        className="w-20"
        onClick={toggle}
        disabled={!isAvailable}
        aria-label={state.isPlaying ? "Pause" : "Play"}
        title="Play or pause (space)"
      >
        <span aria-hidden>{state.isPlaying ? "❚❚" : "▶"}</span>
        {state.isPlaying ? "Pause" : "Play"}
      </Button>
      <span className="text-muted min-w-24 text-[13px] tabular-nums" aria-live="off">
        <span data-testid="audio-position">{formatClock(state.currentMs / 1000)}</span>
        {state.endMs !== null ? <> / {formatClock(endMs / 1000)}</> : null}
      </span>
      <input
        type="range"
        aria-label="Position in the call"
        className="accent-accent h-7 min-w-32 flex-1"
        min={0}
        max={Math.max(endMs, 1)}
        step={1000}
        value={Math.min(state.currentMs, Math.max(endMs, 1))}
        disabled={!isAvailable || state.endMs === null}
        onChange={(e) => seek(Number(e.currentTarget.value))}
        aria-valuetext={formatClock(state.currentMs / 1000)}
      />
      {isLive && state.kind === "hls" ? (
        <Button
          onClick={goLive}
          disabled={state.isAtLiveEdge && state.isPlaying}
          aria-label="Go live: jump to the live edge"
          className={cn(state.isAtLiveEdge && state.isPlaying && "text-accent")}
        >
          <span
            aria-hidden
            className={cn(
              "inline-block size-1.5 rounded-full",
              state.isAtLiveEdge && state.isPlaying ? "bg-accent animate-pulse-dot" : "bg-muted",
            )}
          />
          {state.isAtLiveEdge && state.isPlaying ? "Live" : "Go live"}
        </Button>
      ) : null}
      <span className="text-2xs text-muted hidden lg:inline">
        <Kbd>Space</Kbd> play/pause
      </span>
      {!isAvailable ? (
        <p className="text-2xs text-muted w-full">No recording is available for this call.</p>
      ) : null}
      {state.error ? (
        <p role="alert" className="text-2xs text-neg w-full">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
