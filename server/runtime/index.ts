import "server-only";
import { createRuntime, type Runtime } from "./create-runtime";

export type { Runtime } from "./create-runtime";
export { createRuntime } from "./create-runtime";

/**
 * The process's one runtime, in the process's one `globalThis` slot: Next bundles `instrumentation.ts`, `proxy.ts`
 * and each route handler apart (and dev reloads re-evaluate modules), so module state would not be shared; the
 * custom server (scripts/serve.mjs) reads the stream door from the same slot. Only the app layer (routes, pages,
 * proxy, instrumentation) calls `getRuntime()`; modules under server/ receive what they use.
 */

const SLOT = Symbol.for("callroom.runtime");
type Holder = { [SLOT]?: Runtime };

export function getRuntime(): Runtime {
  const holder = globalThis as Holder;
  holder[SLOT] ??= createRuntime(process.env);
  return holder[SLOT];
}

/** Tests install a runtime built with fakes (and remove it with `undefined`). */
export function installRuntime(runtime: Runtime | undefined): void {
  (globalThis as Holder)[SLOT] = runtime;
}
