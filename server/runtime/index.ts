import "server-only";
import { processRecord } from "../process-slot";
import { createRuntime, type Runtime } from "./create-runtime";

export type { Runtime } from "./create-runtime";
export { createRuntime } from "./create-runtime";

/**
 * The process's one runtime, kept in the process's one `globalThis` slot (server/process-slot.ts). Only the app
 * layer (routes, pages, proxy, instrumentation) calls `getRuntime()`; modules under server/ receive what they use.
 */

export function getRuntime(): Runtime {
  const record = processRecord();
  record.runtime ??= createRuntime(process.env);
  return record.runtime as Runtime;
}

/** Tests install a runtime built with fakes (and remove it with `undefined`). */
export function installRuntime(runtime: Runtime | undefined): void {
  processRecord().runtime = runtime;
}
