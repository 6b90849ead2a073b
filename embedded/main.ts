/**
 * Entry point: `npm run embedded` (tsx). Prints exactly one line, `Embedded market-data service listening on
 * http://HOST:PORT`, which the app's launcher parses; configuration errors print to stderr and exit with code 1.
 *
 * The launcher (scripts/launch.mjs) and the benches start it with `--max-old-space-size=512
 * --max-semi-space-size=8`. The main thread holds ~60 MB of live objects (the universe, caches), but on a machine
 * with several GB of RAM V8 lets the heap grow up to 4× that before a full GC, and keeps a 32 MB young generation:
 * 160–210 MB of heap for 60 MB of objects. A 512 MB cap (8× the live set, 3× the 300 MB target) lowers V8's
 * growing factor to ~1.4 and the young generation to 16 MB: the heap stays near 100 MB. The flags must be given
 * at start-up (V8 sizes the heap when it starts; `v8.setFlagsFromString` later does not resize it), and
 * `--optimize-for-size`, which can be set from here, halves the heap but doubles the CPU of listing and of
 * building calls. Figures: docs/embedded-history.md, "Measured".
 */
import { ConfigError, loadConfig, type EmbeddedConfig } from "./config";
import { startEmbeddedServer } from "./server";

async function main(): Promise<void> {
  let config: EmbeddedConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The service a person browses: summaries of the whole year are computed in the background from the start.
  const server = await startEmbeddedServer(config, { warmSummaries: true });
  process.stdout.write(`Embedded market-data service listening on ${server.url}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // A second signal, or a close that hangs, must not keep the process alive.
    setTimeout(() => process.exit(1), 5000).unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`embedded: error while stopping on ${signal}`, error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error("embedded: failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
