import "server-only";
import type { UserStreams } from "../security/user-streams";
import { serveSse, type SseOptions, type SseSink } from "./sse";

/** Serves `options` onto `sink` as one of `user`'s streams: ended (`revoked`) when the user is removed. */
export function serveUserSse(streams: UserStreams, user: string, sink: SseSink, options: SseOptions): void {
  let ended = false;
  let letGo: (() => void) | null = null;
  const stream = serveSse(sink, {
    ...options,
    onClose(reason) {
      ended = true;
      letGo?.();
      options.onClose?.(reason);
    },
  });
  // A client already gone while the stream began is closed by now: nothing to hold.
  if (!ended) letGo = streams.hold(user, () => stream.close("revoked"));
}
