/**
 * Entry point: `npm run embedded` (tsx). Prints exactly one line, `Embedded market-data service listening on
 * http://HOST:PORT`, which the app's launcher parses; configuration errors print to stderr and exit with code 1.
 */
import { ConfigError, loadConfig, type EmbeddedConfig } from "./config";
import { startEmbeddedServer } from "./server";

async function main(): Promise<void> {
  let config: EmbeddedConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The service a person browses: summaries of the whole year are computed in the background from the start.
  const server = await startEmbeddedServer(config, process.env, { warmSummaries: true });
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
