/**
 * The embedded market-data service: one node:http server carrying the REST routes of docs/upstream.md §2–5, the
 * live WebSocket (§6) and the control API (§7). Started by the app's launcher as a child process (`main.ts`), by
 * tests in-process (`test/harness.ts`).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serviceClock, type Clock } from "./clock";
import type { EmbeddedConfig } from "./config";
import { createAuthorizer } from "./core/auth";
import { controlRoutes } from "./core/control-routes";
import { FaultState } from "./core/faults";
import { createRequestHandler } from "./core/handler";
import { RateLimiter } from "./core/rate-limit";
import { RequestStats } from "./core/stats";
import { createLiveService } from "./live/index";
import { balanceSheetRoutes } from "./rest/balance-sheet";
import { calendarRoutes } from "./rest/calendars";
import { fundamentalsRoutes } from "./rest/fundamentals";
import type { Universe } from "./universe/types";
import { wireTransform } from "./wire/documented";

export interface EmbeddedServer {
  /** REST base, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  /** WebSocket base, e.g. `ws://127.0.0.1:4010`. */
  wsUrl: string;
  port: number;
  /** The service's clock (epoch ms): `EMBEDDED_NOW` when set, then real speed (clock.ts). */
  now: Clock;
  close(): Promise<void>;
}

export interface StartOptions {
  /** A prebuilt universe (tests of a single layer); by default `buildUniverse(config.seed)`. */
  universe?: Universe;
  /**
   * The service's clock in ms, instead of the configuration's (`EMBEDDED_NOW`, else real time): tests shift it so
   * that a report's time passes while they watch.
   */
  clock?: Clock;
  /** Compute every historical call's summary in the background after start-up (the program does; tests do not). */
  warmSummaries?: boolean;
}

/** A wildcard bind address is not something a client can connect to; links and the printed URL use loopback. */
function hostForUrl(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startEmbeddedServer(
  config: EmbeddedConfig,
  options: StartOptions = {},
): Promise<EmbeddedServer> {
  // Imported lazily so a single layer can be tested with an injected universe without building the real one.
  const universe = options.universe ?? (await import("./universe/index")).buildUniverse(config.seed);
  const authorize = createAuthorizer(config.apiKeys);
  const faults = new FaultState();
  const stats = new RequestStats();
  let baseUrl = "";
  const clock = options.clock ?? serviceClock(config.nowMs);

  const live = createLiveService({
    universe,
    baseUrl: () => baseUrl,
    env: { ...config.passThrough, EMBEDDED_WIRE: config.wire },
    isWsSilent: () => faults.active(clock())?.wsSilent ?? false,
    authorize: (key) => authorize(key, "transcripts"),
    now: clock,
    warmSummaries: options.warmSummaries ?? false,
    transcriptsDir: config.transcriptsDir,
  });

  const routes = [
    ...calendarRoutes(universe),
    ...fundamentalsRoutes(universe),
    ...balanceSheetRoutes(universe),
    ...live.routes,
    ...controlRoutes({
      faults,
      stats,
      wsConnections: () => live.wsConnections(),
      dropWebSockets: () => live.dropWebSockets(),
    }),
  ];

  const server = createServer(
    createRequestHandler({
      routes,
      authorize,
      rateLimiter: new RateLimiter(config.rateLimitPerSecond),
      faults,
      stats,
      clock: () => new Date(clock()),
      transformBody: wireTransform(config.wire, () => baseUrl),
    }),
  );
  // Node's 5 s default races clients that reuse an idle keep-alive socket just as the server closes it (undici
  // trusts the advertised timeout minus a second): on a loaded machine that surfaces as ECONNRESET. A long idle
  // timeout makes the race practically unreachable for the app's client and for tests.
  server.keepAliveTimeout = 65_000;
  live.attach(server);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });

  const port = (server.address() as AddressInfo).port;
  const host = hostForUrl(config.host);
  baseUrl = `http://${host}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    wsUrl: `ws://${host}:${port}`,
    port,
    now: clock,
    close() {
      closing ??= (async () => {
        await live.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
