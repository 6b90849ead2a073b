"use client";

import type Hls from "hls.js";
import { useCallback, useEffect, useRef, useState } from "react";

export type AudioSourceKind = "hls" | "mp3" | "none";

export interface CallAudioState {
  kind: AudioSourceKind;
  isPlaying: boolean;
  /** Position from the call's start, in ms. */
  currentMs: number;
  /** Seekable end (the live edge while live, the duration once complete), in ms; null before metadata. */
  endMs: number | null;
  isAtLiveEdge: boolean;
  error: string | null;
}

/** Within this much of the live edge, the listener counts as "live". */
const LIVE_EDGE_TOLERANCE_S = 8;

function isBuffered(audio: HTMLAudioElement, seconds: number): boolean {
  for (let i = 0; i < audio.buffered.length; i++)
    if (audio.buffered.start(i) <= seconds && seconds < audio.buffered.end(i)) return true;
  return false;
}

/**
 * The call's audio in one <audio> element: HLS while the call is live (hls.js, else native HLS), the MP3 once it
 * exists. `Hls.isSupported()` is checked first because desktop Chromium answers "maybe" to
 * `canPlayType("application/vnd.apple.mpegurl")` yet cannot play our live playlists natively. Media time 0 is the
 * call's start (the event playlist keeps every segment from the first), so `currentTime` and segment `startMs`
 * share one clock. Switching from HLS to the MP3 keeps the listener's position and play state.
 *
 * The HLS path starts at the reader's first intent to listen (play, a click on a sentence, a seek, "go live"), not
 * with the page: hls.js is ≈ 175 kB of code, and once attached it fetches and parses playlist and segments; on a
 * phone that was a second of blocked main thread for every reader of a call, most of whom read the transcript. The
 * MP3 needs no library and the browser only reads its metadata until played, so it is set at once.
 */
export function useCallAudio(
  callId: string,
  source: {
    hasAudio: boolean;
    hasMp3: boolean;
    isLive: boolean;
    /** The recording's length, known from the call: the player shows it before any audio is loaded. */
    durationMs?: number | null;
  },
  startAtMs: number | null,
) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const hlsRef = useRef<Hls | null>(null);
  const resumeRef = useRef<{ ms: number; play: boolean } | null>(
    startAtMs !== null ? { ms: startAtMs, play: false } : null,
  );
  const kind: AudioSourceKind = source.hasMp3 ? "mp3" : source.hasAudio ? "hls" : "none";
  const [isArmed, setArmed] = useState(false);
  /** Play as soon as the source is ready: the intent that armed the HLS path was "listen". */
  const playWhenReadyRef = useRef(false);
  const needsArming = kind === "hls" && !isArmed;
  const [state, setState] = useState<CallAudioState>({
    kind,
    isPlaying: false,
    currentMs: startAtMs ?? 0,
    endMs: source.isLive ? null : (source.durationMs ?? null),
    isAtLiveEdge: false,
    error: null,
  });

  // Read when the source loads (not a dependency: a call ending must not reload the audio it is playing).
  const startsLiveRef = useRef(source.isLive);
  useEffect(() => {
    startsLiveRef.current = source.isLive;
  }, [source.isLive]);

  const liveEdgeSeconds = useCallback((): number | null => {
    const audio = audioRef.current;
    if (!audio) return null;
    const sync = hlsRef.current?.liveSyncPosition;
    if (typeof sync === "number" && Number.isFinite(sync)) return sync;
    return audio.seekable.length > 0 ? audio.seekable.end(audio.seekable.length - 1) : null;
  }, []);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || kind === "none" || (kind === "hls" && !isArmed)) return;
    let isCancelled = false;
    // Left in place: a cleanup before anything loaded (a Strict Mode re-run) must not lose the deep-linked start.
    const resume = resumeRef.current;
    setState((s) => ({ ...s, kind, error: null }));

    const playWhenReady = playWhenReadyRef.current;
    playWhenReadyRef.current = false;
    const applyResume = () => {
      if (resume) audio.currentTime = resume.ms / 1000;
      if (resume?.play || playWhenReady) void audio.play().catch(() => undefined);
    };

    if (kind === "mp3") {
      audio.src = `/api/calls/${callId}/audio.mp3`;
      audio.addEventListener("loadedmetadata", applyResume, { once: true });
    } else {
      const url = `/api/calls/${callId}/audio/playlist.m3u8`;
      void import("hls.js").then(({ default: HlsClass }) => {
        if (isCancelled) return;
        if (HlsClass.isSupported()) {
          const hls = new HlsClass({
            // Start at the deep-linked moment, else at the live edge of a live call (its listener wants "now")
            // and at the beginning of a recording (whose playlist may still be growing while it is prepared).
            startPosition: resume ? resume.ms / 1000 : startsLiveRef.current ? -1 : 0,
            liveSyncDurationCount: 3,
            // The playlist grows for the whole call: never drop the start, the transcript seeks back to it.
            liveMaxLatencyDurationCount: Infinity,
          });
          hlsRef.current = hls;
          hls.on(HlsClass.Events.ERROR, (_event, data) => {
            if (!data.fatal) return;
            if (data.type === HlsClass.ErrorTypes.MEDIA_ERROR) {
              hls.recoverMediaError();
              return;
            }
            setState((s) => ({ ...s, error: "The audio stream is not available right now." }));
          });
          hls.loadSource(url);
          hls.attachMedia(audio);
          if (resume?.play || playWhenReady)
            hls.once(HlsClass.Events.MANIFEST_PARSED, () => void audio.play().catch(() => undefined));
        } else if (audio.canPlayType("application/vnd.apple.mpegurl")) {
          audio.src = url;
          audio.addEventListener("loadedmetadata", applyResume, { once: true });
        } else {
          setState((s) => ({ ...s, error: "This browser cannot play live audio." }));
        }
      });
    }

    return () => {
      isCancelled = true;
      if (audio.src || hlsRef.current)
        resumeRef.current = { ms: audio.currentTime * 1000, play: !audio.paused };
      audio.removeEventListener("loadedmetadata", applyResume);
      hlsRef.current?.destroy();
      hlsRef.current = null;
      audio.removeAttribute("src");
      audio.load();
    };
  }, [callId, kind, isArmed]);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const update = () => {
      const edge = liveEdgeSeconds();
      const end = Number.isFinite(audio.duration) ? audio.duration : edge;
      setState((s) => ({
        ...s,
        isPlaying: !audio.paused,
        currentMs: audio.currentTime * 1000,
        endMs: end !== null && Number.isFinite(end) ? end * 1000 : null,
        isAtLiveEdge: edge !== null && edge - audio.currentTime < LIVE_EDGE_TOLERANCE_S,
      }));
    };
    const onError = () => {
      if (audio.getAttribute("src")) setState((s) => ({ ...s, error: "The recording could not be loaded." }));
    };
    const events = ["timeupdate", "play", "pause", "seeked", "loadedmetadata", "durationchange", "progress"];
    for (const e of events) audio.addEventListener(e, update);
    audio.addEventListener("error", onError);
    return () => {
      for (const e of events) audio.removeEventListener(e, update);
      audio.removeEventListener("error", onError);
    };
  }, [liveEdgeSeconds]);

  const seek = useCallback(
    (ms: number) => {
      const audio = audioRef.current;
      if (!audio) return;
      if (needsArming) {
        // The source starts there (hls.js's start position).
        resumeRef.current = { ms, play: false };
        setArmed(true);
      } else if (audio.readyState === 0) {
        // Not loaded yet: hls.js and the MP3 both honour a position set once metadata arrives.
        audio.addEventListener("loadedmetadata", () => (audio.currentTime = ms / 1000), { once: true });
      } else {
        const seconds = ms / 1000;
        audio.currentTime = seconds;
        const hls = hlsRef.current;
        if (hls && !isBuffered(audio, seconds)) {
          // hls.js would first finish loading ahead of the old position; meanwhile the playhead waits at the target,
          // and when audio is buffered a few seconds after it (the live edge the player started at, say) its gap
          // controller jumps there: the listener missed the start of the sentence. Restarting the loader at the
          // target fetches the target's segment first.
          hls.startLoad(seconds, true);
        }
      }
      setState((s) => ({ ...s, currentMs: ms }));
    },
    [needsArming],
  );

  /** Seeks and plays: what a click on a sentence means. */
  const playFrom = useCallback(
    (ms: number) => {
      if (needsArming) playWhenReadyRef.current = true;
      seek(ms);
      const audio = audioRef.current;
      // Arming or not, asked inside the click (see toggle).
      if (audio?.paused) void audio.play().catch(() => undefined);
    },
    [seek, needsArming],
  );

  const toggle = useCallback(() => {
    const audio = audioRef.current;
    if (!audio) return;
    if (needsArming) {
      playWhenReadyRef.current = true;
      setArmed(true);
      // Asked inside the click, so browsers that want a gesture for sound allow it; it starts once the source is in.
      void audio.play().catch(() => undefined);
    } else if (audio.paused)
      void audio
        .play()
        .catch(() => setState((s) => ({ ...s, error: "Playback was blocked by the browser; press play." })));
    else audio.pause();
  }, [needsArming]);

  const goLive = useCallback(() => {
    const audio = audioRef.current;
    if (audio && needsArming) {
      // A live call's source starts at the live edge unless a position was asked for.
      resumeRef.current = null;
      playWhenReadyRef.current = true;
      setArmed(true);
      void audio.play().catch(() => undefined);
      return;
    }
    const edge = liveEdgeSeconds();
    if (!audio || edge === null) return;
    audio.currentTime = edge;
    if (audio.paused) void audio.play().catch(() => undefined);
  }, [liveEdgeSeconds, needsArming]);

  return { audioRef, state: { ...state, kind }, seek, playFrom, toggle, goLive, isLive: source.isLive };
}

export type CallAudio = ReturnType<typeof useCallAudio>;
