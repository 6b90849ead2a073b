"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { StreamState, StreamTarget } from "./live-stream";

/*
 * The stream's reader (EventSource, message parsing, cache updates) is imported when a stream opens, not with the
 * page: a page showing only finished calls never needs it, and for a live one it arrives with the first
 * connection, a few kB later, while the snapshot from the server is already on screen.
 */
const loadStreamCode = () => Promise.all([import("./live-stream"), import("./apply-events")]);

export interface LiveStreamStatus {
  state: StreamState;
  /** When the stream went down (ms since epoch); null while it is up. */
  downSince: number | null;
}

/**
 * Follows live events for the page and writes them into the query cache. The page mounts this once: one
 * EventSource per tab. `cursor` is read when the stream opens only; later snapshots do not reopen it (the open
 * stream already delivers what follows them).
 */
export function useLiveStream(target: StreamTarget | null, cursor: string | null = null): LiveStreamStatus {
  const client = useQueryClient();
  const [status, setStatus] = useState<LiveStreamStatus>({ state: "connecting", downSince: null });
  const cursorRef = useRef(cursor);
  useEffect(() => {
    cursorRef.current = cursor;
  }, [cursor]);

  const targetKey = target ? JSON.stringify([target.tickers ?? null, target.calls ?? null]) : null;

  useEffect(() => {
    if (!targetKey) return;
    const [tickers, calls] = JSON.parse(targetKey) as [StreamTarget["tickers"] | null, string[] | null];
    let stop: (() => void) | null = null;
    let isCancelled = false;
    void loadStreamCode().then(([{ openLiveStream }, { applyLiveMessages, createFrameBatcher }]) => {
      if (isCancelled) return;
      const batcher = createFrameBatcher((batch) => applyLiveMessages(client, batch));
      const close = openLiveStream({
        target: { tickers: tickers ?? undefined, calls: calls ?? undefined },
        cursor: cursorRef.current,
        onMessage: batcher.push,
        onState: (state) =>
          setStatus((previous) => ({
            state,
            downSince:
              state === "reconnecting"
                ? (previous.downSince ?? Date.now())
                : state === "open"
                  ? null
                  : previous.downSince,
          })),
      });
      stop = () => {
        close();
        batcher.dispose();
      };
    });
    return () => {
      isCancelled = true;
      stop?.();
    };
  }, [client, targetKey]);

  return status;
}
