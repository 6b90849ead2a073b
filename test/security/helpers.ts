import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { hashPassword } from "@/server/auth/password";
import { readConfig } from "@/server/config";
import { createLogger, getLogger, installLogger } from "@/server/log";
import { createRuntime, getRuntime, installRuntime, type Runtime } from "@/server/runtime";
import type { Gate } from "@/server/security/gate";

export const SECRET = "test-session-secret-0123456789-abcdefghij";

const SECURITY_VARS = [
  "CALLROOM_USERS_FILE",
  "CALLROOM_SESSION_SECRET",
  "CALLROOM_RATE_LIMIT",
  "CALLROOM_SSE_PER_CLIENT",
  "CALLROOM_TRUST_PROXY",
  "CALLROOM_METRICS_TOKEN",
  "HOST",
  "CALLROOM_PUBLIC_URL",
] as const;

/** Sets the security variables (unlisted ones removed) and installs a runtime built from the environment as it is. */
export function setSecurityEnv(vars: Partial<Record<(typeof SECURITY_VARS)[number], string>>): Runtime {
  for (const name of SECURITY_VARS) {
    const value = vars[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const runtime = createRuntime(readConfig(process.env));
  installRuntime(runtime);
  return runtime;
}

/** A sealed session for `user` under the installed runtime's secret. */
export function sealSession(user: string): Promise<string> {
  return getRuntime().auth.seal(user);
}

/** The gate of whichever runtime is installed when a request arrives (tests change it between requests). */
export function currentGate(): Gate {
  return {
    context: (request) => getRuntime().gate.context(request),
    check: (request, context) => getRuntime().gate.check(request, context),
    log: (request, context, outcome) => getRuntime().gate.log(request, context, outcome),
    client: (request) => getRuntime().gate.client(request),
  };
}

/** Cheap scrypt parameters: the format and the check are what is under test, not the cost. */
export const FAST = { N: 1024, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

export async function writeUsersFile(users: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "callroom-users-"));
  const path = join(dir, "users");
  const lines = await Promise.all(
    Object.entries(users).map(async ([name, password]) => `${name}:${await hashPassword(password, FAST)}`),
  );
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

export function emptyUsersPath(): string {
  return join(mkdtempSync(join(tmpdir(), "callroom-nousers-")), "users");
}

/** Every log line the server writes, as text (pino at debug level). */
export function captureLogs(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString("utf8"));
      callback();
    },
  });
  const previous = getLogger();
  installLogger(createLogger(sink, "debug"));
  return {
    lines,
    restore() {
      installLogger(previous);
    },
  };
}

/** Every page and API route of the app (docs/interfaces.md §1, §5), with placeholders for ids. */
export function appPaths(callId: string, symbol: string): { pages: string[]; api: string[] } {
  return {
    pages: [
      "/",
      "/live",
      "/calls",
      `/calls/${callId}`,
      "/calendar/earnings",
      "/calendar/ma",
      `/companies/${symbol}`,
      `/compare?symbols=${symbol}`,
    ],
    api: [
      "/api/calendar/earnings",
      "/api/calendar/ma",
      `/api/fundamentals/valuation-ratios?symbols=${symbol}`,
      `/api/fundamentals/balance-sheet?symbols=${symbol}`,
      `/api/companies/${symbol}/peers`,
      "/api/calls",
      `/api/calls/${callId}`,
      `/api/calls/${callId}/summary`,
      `/api/calls/${callId}/audio/playlist.m3u8`,
      `/api/calls/${callId}/audio/segments/0.mp3`,
      `/api/calls/${callId}/audio.mp3`,
      `/api/calls/${callId}/transcript.pdf`,
      "/api/summaries",
      `/api/symbols?q=${symbol}`,
      "/api/stream?tickers=*",
      "/api/metrics",
    ],
  };
}
