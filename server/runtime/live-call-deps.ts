import "server-only";
import type { LiveCallDeps } from "../live/live-call";
import { getRuntime } from "./index";

/** What the call page and `/api/calls/[callId]` need to merge REST with the live hub. */
export function liveCallDeps(): LiveCallDeps {
  const runtime = getRuntime();
  return {
    upstream: runtime.upstream,
    hub: runtime.live.hub,
    mp3Readiness: (callId) => runtime.media.mp3Readiness(callId),
  };
}
