import "server-only";
import { readConfig } from "@/server/config";
import { createRuntime, installRuntime, type Runtime } from "@/server/runtime";
import type { RuntimeOverrides } from "@/server/runtime/create-runtime";
import type { MediaProxy } from "@/server/upstream/media";

const NAMES = [
  "UPSTREAM_BASE_URL",
  "UPSTREAM_WS_URL",
  "UPSTREAM_API_KEY",
  "UPSTREAM_MODE",
  "UPSTREAM_TIMEOUT_MS",
] as const;
type Name = (typeof NAMES)[number];

/**
 * Sets the upstream variables for a test (unlisted ones are removed) and installs a fresh runtime built from them:
 * an empty cache, a closed breaker and a full retry budget, so one test's traffic stays its own.
 */
export function setUpstreamEnv(
  vars: Partial<Record<Name, string>>,
  overrides: RuntimeOverrides = {},
): Runtime {
  for (const name of NAMES) {
    const value = vars[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const runtime = createRuntime(readConfig(process.env), overrides);
  installRuntime(runtime);
  return runtime;
}

export function clearUpstreamEnv(): void {
  setUpstreamEnv({});
}

/** Installs a fresh runtime (from the current environment) whose media proxy is `proxy` (tests of the media routes). */
export function useMediaProxy(proxy: MediaProxy): Runtime {
  const runtime = createRuntime(readConfig(process.env), { media: () => proxy });
  installRuntime(runtime);
  return runtime;
}

/** A fresh runtime from the current environment (tests that set process.env themselves). */
export function refreshRuntime(overrides: RuntimeOverrides = {}): Runtime {
  const runtime = createRuntime(readConfig(process.env), overrides);
  installRuntime(runtime);
  return runtime;
}
