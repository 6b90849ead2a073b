/**
 * How the benchmarks start the embedded service alone: as the launcher (scripts/launch.mjs) and `npm run embedded`
 * do, with the V8 heap flags embedded/main.ts explains, so what is measured is the service as it runs.
 */
export const EMBEDDED_NODE_FLAGS = ["--max-old-space-size=512", "--max-semi-space-size=8"];

/** Node's arguments for the embedded service. */
export const EMBEDDED_ARGS = [...EMBEDDED_NODE_FLAGS, "--import", "tsx", "embedded/main.ts"];
