/**
 * Next calls `register()` once per server process before serving requests: the process's runtime (server/runtime/)
 * is built here from the environment, the one place the server reads it (server/config.ts), and its background
 * parts are started (the live bus's upstream consumer, the archive, the alert engine). Node runtime only: the Edge
 * runtime has neither `ws` nor a long-lived process. The import is dynamic so the Edge bundle never pulls in server
 * modules.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` may load instrumentation in its workers: they must not take the key's single stream connection.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startRuntime } = await import("./server/runtime");
  const runtime = startRuntime(process.env);
  // One process per PGlite folder (docs/storage.md): a server refused its folder stops, naming it, instead of serving
  // pages without a database. The launcher checks first; this catches a start by any other way and a lost race.
  runtime.database.get().catch((error: unknown) => {
    if ((error as { code?: unknown })?.code !== "FOLDER_IN_USE") return;
    runtime.log.fatal({ err: error }, (error as Error).message);
    console.error(`[callroom] refusing to start: ${(error as Error).message}`);
    process.exit(1);
  });
}
