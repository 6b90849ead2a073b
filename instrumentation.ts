/**
 * Next calls `register()` once per server process before serving requests. The live relay (the one upstream
 * WebSocket, design.md §1) starts here, in the Node runtime only: the Edge runtime has neither `ws` nor a long-lived
 * process. The import is dynamic so the Edge bundle never pulls in server modules.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` may load instrumentation in its workers: they must not take the key's single stream connection.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startRelay } = await import("./server/relay/relay");
  const { installStreamFastPath } = await import("./server/relay/stream-fast-path");
  // Registered whatever happens below: it serves the same hub the route handler would.
  installStreamFastPath();
  try {
    startRelay();
  } catch (error) {
    // A bad environment must not keep the dashboard from serving REST pages; health reports the stream as closed.
    const { getLogger } = await import("./server/log");
    getLogger().error({ err: error }, "relay: failed to start");
  }
}
