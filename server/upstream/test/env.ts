import "server-only";
import { resetEnvCache } from "../../env";

const NAMES = [
  "UPSTREAM_BASE_URL",
  "UPSTREAM_WS_URL",
  "UPSTREAM_API_KEY",
  "UPSTREAM_MODE",
  "UPSTREAM_TIMEOUT_MS",
] as const;
type Name = (typeof NAMES)[number];

/** Sets the upstream variables for a test (unlisted ones are removed) and forgets the cached env. */
export function setUpstreamEnv(vars: Partial<Record<Name, string>>): void {
  for (const name of NAMES) {
    const value = vars[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
}

export function clearUpstreamEnv(): void {
  setUpstreamEnv({});
}
