import "server-only";

/**
 * The process's one `globalThis` slot. Next bundles `instrumentation.ts`, `proxy.ts` and each route handler apart
 * (and dev reloads re-evaluate modules), so module-level state would exist once per bundle; what must exist once per
 * process lives here, and only that: the runtime (server/runtime/) and the logging every part may use before or
 * without a runtime (server/log.ts: the root logger and the request ids it stamps). The custom server
 * (scripts/serve.mjs) reads the runtime's door from the same slot. Each owner types its own member; this module
 * stays a leaf.
 */

const SLOT = Symbol.for("callroom.process");

export interface ProcessRecord {
  runtime?: unknown;
  logger?: unknown;
}

type Holder = { [SLOT]?: ProcessRecord };

export function processRecord(): ProcessRecord {
  const holder = globalThis as Holder;
  holder[SLOT] ??= {};
  return holder[SLOT];
}
