import "server-only";
import { readConfig, type Env } from "../config";
import { createLogger, installLogger } from "../log";
import { processRecord } from "../process-slot";
import { createRuntime, type Runtime } from "./create-runtime";

export type { Runtime } from "./create-runtime";
export { createRuntime } from "./create-runtime";

/**
 * The process's one runtime, kept in the process's one `globalThis` slot (server/process-slot.ts). instrumentation.ts
 * builds and starts it from the environment before Next serves a request (`startRuntime`); only the app layer
 * (routes, pages, proxy) calls `getRuntime()`; modules under server/ receive what they use.
 */

export function getRuntime(): Runtime {
  const runtime = processRecord().runtime as Runtime | undefined;
  if (!runtime) throw new Error("runtime: not built yet (instrumentation.ts builds it at start-up)");
  return runtime;
}

/**
 * Builds the runtime from `env` (once per process: a second call, a dev reload, keeps the first) and starts it. The
 * root logger is installed first, at the configured level, so the runtime and every part logging without one share it.
 */
export function startRuntime(env: Env): Runtime {
  const record = processRecord();
  if (!record.runtime) {
    const config = readConfig(env);
    installLogger(createLogger(undefined, config.logLevel));
    record.runtime = createRuntime(config);
  }
  const runtime = record.runtime as Runtime;
  runtime.start();
  return runtime;
}

/** Tests install a runtime built with fakes (and remove it with `undefined`). */
export function installRuntime(runtime: Runtime | undefined): void {
  processRecord().runtime = runtime;
}
