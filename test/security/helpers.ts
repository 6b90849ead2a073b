import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { hashPassword } from "@/server/auth/password";
import { clearUsersCache } from "@/server/auth/users";
import { createLogger, setLogger } from "@/server/log";
import { resetSecurityConfig } from "@/server/security/config";
import { resetLimits } from "@/server/security/limits";

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

/** Sets the security variables (unlisted ones removed) and forgets every cached view of them. */
export function setSecurityEnv(vars: Partial<Record<(typeof SECURITY_VARS)[number], string>>): void {
  for (const name of SECURITY_VARS) {
    const value = vars[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetSecurityConfig();
  resetLimits();
  clearUsersCache();
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
  const previous = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "debug";
  setLogger(createLogger(sink));
  return {
    lines,
    restore() {
      setLogger(undefined);
      if (previous === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = previous;
    },
  };
}

/** Every page and API route of the app (design.md §3), with placeholders for ids. */
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
