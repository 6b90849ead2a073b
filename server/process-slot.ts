import "server-only";

/**
 * The process's one `globalThis` slot. Next bundles `instrumentation.ts`, `proxy.ts` and each route handler apart
 * (and dev reloads re-evaluate modules), so module-level state would exist once per bundle; what must exist once per
 * process lives here: the runtime (server/runtime/), and the two ambient services every part may use before or
 * without a runtime, the root logger (server/log.ts) and the request context (server/http/request-context.ts).
 * The custom server (scripts/serve.mjs) reads the runtime's stream door from the same slot.
 * Each owner types its own member; this module stays a leaf.
 */

const SLOT = Symbol.for("callroom.process");

export interface ProcessRecord {
  runtime?: unknown;
  logger?: unknown;
  requestContext?: unknown;
  limits?: unknown;
}

type Holder = { [SLOT]?: ProcessRecord };

export function processRecord(): ProcessRecord {
  const holder = globalThis as Holder;
  holder[SLOT] ??= {};
  return holder[SLOT];
}
