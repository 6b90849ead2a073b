/**
 * Test harness: an embedded service on 127.0.0.1, OS-chosen port, in this process.
 *
 *   const embedded = await startTestEmbedded({ EMBEDDED_RATE_LIMIT: "0" });
 *   afterAll(() => embedded.close());
 *   await fetch(`${embedded.url}/api/v2.1/calendar/earnings`, { headers: { authorization: `token ${embedded.key}` } });
 *
 * `envOverrides` are EMBEDDED_* variables (they win over process.env). The rate limit defaults to 0 (off) here so
 * parallel test requests are not refused; pass `EMBEDDED_RATE_LIMIT` to test it.
 *
 * The service's clock is `EMBEDDED_NOW` when set (in the overrides or the environment: a whole suite can be run on
 * another date), else real time; `options.clock` replaces it. Tests compare dates with `embedded.now()`, never with
 * `Date.now()`.
 */
import type { Clock } from "../clock";
import { loadConfig } from "../config";
import { startEmbeddedServer } from "../server";
import type { Universe } from "../universe/types";

/**
 * A Sunday noon in New York: no report is released that weekend and no call is held, so no release call goes live
 * for hours (clock.test.ts checks it). Tests that count live calls set the clock here (`EMBEDDED_NOW: QUIET_NOW`): on
 * a weekday evening up to eight release calls would go live beside the scheduled ones.
 */
export const QUIET_NOW = "2026-11-29T17:00:00Z";

export interface FaultsRequest {
  restErrorRate?: number;
  restStatus?: 500 | 502 | 503 | 504;
  restLatencyMs?: number;
  wsSilent?: boolean;
  durationSeconds: number;
}

export interface EmbeddedStats {
  wsConnections: number;
  restRequests: { total: number; byPath: Record<string, number>; byStatus: Record<string, number> };
}

export interface TestEmbedded {
  /** REST base URL, no trailing slash. */
  url: string;
  /** WebSocket base URL. */
  wsUrl: string;
  /** A key whose plan holds every product. */
  key: "demo";
  /** The service's clock, epoch ms. */
  now: Clock;
  close(): Promise<void>;
  stats(): Promise<EmbeddedStats>;
  setFaults(body: FaultsRequest): Promise<void>;
  clearFaults(): Promise<void>;
  dropWebSockets(): Promise<void>;
}

async function control(url: string, method: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

export async function startTestEmbedded(
  envOverrides: Record<string, string> = {},
  options: { universe?: Universe; clock?: Clock } = {},
): Promise<TestEmbedded> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EMBEDDED_RATE_LIMIT: "0",
    ...envOverrides,
    EMBEDDED_HOST: "127.0.0.1",
    EMBEDDED_PORT: "0",
  };
  const server = await startEmbeddedServer(loadConfig(env), options);
  const base = `${server.url}/__embedded`;
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    key: "demo",
    now: server.now,
    close: () => server.close(),
    stats: async () => (await control(`${base}/stats`, "GET")) as EmbeddedStats,
    setFaults: async (body) => {
      await control(`${base}/faults`, "POST", body);
    },
    clearFaults: async () => {
      await control(`${base}/faults`, "DELETE");
    },
    dropWebSockets: async () => {
      await control(`${base}/ws/drop`, "POST");
    },
  };
}
