/**
 * Next calls `register()` once per server process before serving requests. The process's runtime (server/runtime/)
 * is built here and its background parts started: the live relay (the one upstream WebSocket, design.md §1). Node
 * runtime only: the Edge runtime has neither `ws` nor a long-lived process. The import is dynamic so the Edge bundle
 * never pulls in server modules.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` may load instrumentation in its workers: they must not take the key's single stream connection.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { getRuntime } = await import("./server/runtime");
  const runtime = getRuntime();
  runtime.start();
  // One process per PGlite folder (docs/storage.md): a server refused its folder stops, naming it, instead of serving
  // pages without a database. The launcher checks first; this catches a start by any other way and a lost race.
  runtime.database.get().catch((error: unknown) => {
    if ((error as { code?: unknown })?.code !== "FOLDER_IN_USE") return;
    runtime.log.fatal({ err: error }, (error as Error).message);
    console.error(`[callroom] refusing to start: ${(error as Error).message}`);
    process.exit(1);
  });
}
