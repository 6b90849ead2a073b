import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { appPaths, emptyUsersPath } from "./helpers";
import { freePort } from "../support/free-port";

/**
 * The key never reaches a browser or a log line: a production build made with a distinctive key in the environment
 * (so a key inlined at build time would show), run against an embedded service that accepts only that key. We scan
 * the client bundle, every response of a crawl of all pages and API routes (bodies and headers, media included), and
 * the server's own output. The same run checks the CSP in Chromium: every script carries the request's nonce and
 * the pages raise no CSP violation.
 *
 * The other secrets get the same treatment: the session secret, the VAPID private key (from the environment, as
 * docs/workspace.md allows), the PGlite folder's import token, a calendar feed's token and a webhook URL's path (both
 * shown to their owner, never logged). The workspace's routes are driven too (a watchlist, a rule with a webhook, a
 * push subscription, a note, a feed, mutes), and what leaves for the webhook and push targets is scanned as well. A
 * walk of `app/` checks that the crawl reached every page and API route, so a new one cannot be forgotten.
 *
 * Heavy: builds into `.next-leak` when there is no build or the sources are newer (set CALLROOM_LEAK_REUSE_BUILD=1
 * to reuse an existing build while iterating).
 */

const CANARY = "callroom-leak-canary-93f1";
const SESSION_SECRET = "callroom-leak-canary-session-secret-0001";
/** A key pair for this test only (`npx web-push generate-vapid-keys`); the private half is the canary. */
const VAPID_PUBLIC_KEY =
  "BCkKRrFgZ_BVBj-XYwn7Y8YT0bgB6IuqaPRF6J95rL6Me7HhSh5cnfjgD_cjS_JEr01n8XomUINVYbzYAg1vcJk";
const VAPID_PRIVATE_KEY = "eXBZ7iSaVerrAVWPJnRlNSSFEMMNsLFlxpSPGkO7Ea8";
const WEBHOOK_SECRET = "T0LEAK/B0CANARY/webhook-path-secret-7731";
const root = resolve(import.meta.dirname, "../..");
const distDir = ".next-leak";
const nextBin = join(root, "node_modules/next/dist/bin/next");

function newestSource(): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const e of readdirSync(p))
        if (e !== "node_modules" && !e.startsWith(".") && e !== "test") visit(join(p, e));
    } else if (!/\.test\.tsx?$/.test(p)) newest = Math.max(newest, st.mtimeMs);
  };
  for (const i of [
    "app",
    "components",
    "lib",
    "server",
    "proxy.ts",
    "instrumentation.ts",
    "next.config.ts",
  ]) {
    visit(join(root, i));
  }
  return newest;
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

let embedded: TestEmbedded;
let server: ChildProcess | undefined;
let base = "";
let output = "";
let dataDir = "";
const seen: { url: string; method: string; status: number; text: string }[] = [];
/** What the server sent to the webhook and push targets (one loopback receiver, allowlisted for both). */
let receiver: Server;
let receiverHost = "";
const received: { path: string; text: string }[] = [];
/** Secrets the server holds that only its owner may see once, and nobody in a log: added as the crawl meets them. */
const ownerSecrets: string[] = [];

async function exchange(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(base + path, {
    method,
    redirect: "manual",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(method === "GET" || method === "HEAD" ? {} : { origin: base }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  const headerText = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  seen.push({
    url: path,
    method,
    status: response.status,
    text: `${headerText}\n\n${buffer.toString("latin1")}`,
  });
  return new Response(method === "HEAD" || [204, 304].includes(response.status) ? null : buffer, {
    status: response.status,
    headers: response.headers,
  });
}

const get = (path: string, headers: Record<string, string> = {}) => exchange("GET", path, undefined, headers);

/**
 * A JSON answer that must come as a 200 within a minute (a busy shared machine can make the first upstream reads time
 * out); otherwise the failure says what the server answered and logged.
 */
async function getData<T>(path: string): Promise<T> {
  for (const deadline = Date.now() + 60_000; ;) {
    const response = await get(path);
    const text = await response.text();
    if (response.status === 200) return (JSON.parse(text) as { data: T }).data;
    if (response.status < 500 || Date.now() > deadline)
      throw new Error(
        `${path}: ${response.status} ${text}\n--- server output (tail):\n${output.slice(-4000)}`,
      );
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** A few seconds of a stream's text. */
async function readStream(path: string, ms: number): Promise<void> {
  const controller = new AbortController();
  const sse = await fetch(base + path, { signal: controller.signal });
  const reader = sse.body!.getReader();
  let text = "";
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), 500)),
    ]);
    if (chunk && !chunk.done) text += Buffer.from(chunk.value).toString("utf8");
  }
  controller.abort();
  seen.push({ url: path, method: "GET", status: sse.status, text });
}

/** Every page and API route under app/, as a pattern a crawled path must match. */
function appRoutes(): { file: string; pattern: RegExp }[] {
  const app = join(root, "app");
  return files(app)
    .filter((f) => /\/(route\.ts|page\.tsx)$/.test(f))
    .map((file) => {
      const segments = relative(app, file)
        .split("/")
        .slice(0, -1)
        .filter((s) => !/^\(.*\)$/.test(s))
        .map((s) => (/^\[.+\]$/.test(s) ? "[^/]+" : s.replace(/[.*+?^${}()|\\]/g, "\\$&")));
      return { file: relative(root, file), pattern: new RegExp(`^/${segments.join("/")}/?(\\?.*)?$`) };
    });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headerText = Object.entries(req.headers)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join("\n");
      received.push({
        path: req.url ?? "",
        text: `${headerText}\n\n${Buffer.concat(chunks).toString("latin1")}`,
      });
      res.statusCode = req.url?.startsWith("/push/") ? 201 : 200;
      res.end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  receiverHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), "callroom-leak-data-"));
  embedded = await startTestEmbedded({ EMBEDDED_API_KEYS: `${CANARY}:all`, EMBEDDED_CALL_MINUTES: "3" });
  const buildId = join(root, distDir, "BUILD_ID");
  const marker = join(root, distDir, "callroom-leak-canary");
  const reuse = process.env.CALLROOM_LEAK_REUSE_BUILD === "1" && existsSync(buildId) && existsSync(marker);
  if (!reuse && (!existsSync(marker) || statSync(buildId).mtimeMs < newestSource())) {
    const build = spawnSync(process.execPath, [nextBin, "build"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_DIST_DIR: distDir,
        UPSTREAM_API_KEY: CANARY,
        UPSTREAM_BASE_URL: embedded.url,
        // Were any server secret read at build time into a page or a chunk, the scan of the bundle would find it.
        CALLROOM_SESSION_SECRET: SESSION_SECRET,
        CALLROOM_VAPID_PUBLIC_KEY: VAPID_PUBLIC_KEY,
        CALLROOM_VAPID_PRIVATE_KEY: VAPID_PRIVATE_KEY,
      },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    output += build.stdout + build.stderr;
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    writeFileSync(marker, "built with the leak canary in the environment\n");
  }
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(
    process.execPath,
    [join(root, "scripts/serve.mjs"), "start", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        NEXT_DIST_DIR: distDir,
        UPSTREAM_BASE_URL: embedded.url,
        UPSTREAM_WS_URL: embedded.wsUrl,
        UPSTREAM_API_KEY: CANARY,
        UPSTREAM_MODE: "remote",
        CALLROOM_USERS_FILE: emptyUsersPath(),
        CALLROOM_SESSION_SECRET: SESSION_SECRET,
        CALLROOM_RATE_LIMIT: "0",
        CALLROOM_DATA_DIR: dataDir,
        CALLROOM_VAPID_PUBLIC_KEY: VAPID_PUBLIC_KEY,
        CALLROOM_VAPID_PRIVATE_KEY: VAPID_PRIVATE_KEY,
        CALLROOM_WEBHOOK_ALLOWLIST: receiverHost,
        CALLROOM_PUSH_ALLOWLIST: receiverHost,
        LOG_LEVEL: "debug",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  server.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  server.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  for (let i = 0; i < 120; i += 1) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not start:\n${output}`);
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  }
  await embedded?.close();
  receiver?.closeAllConnections();
  receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The server's own secrets: the upstream key, the session secret, the VAPID private key, the import token. */
function serverSecrets(): [string, string][] {
  const lock = JSON.parse(readFileSync(join(dataDir, "callroom.lock"), "utf8")) as { token?: string };
  expect(lock.token, "the PGlite folder's lock holds an import token").toMatch(/^[0-9a-f]{48}$/);
  return [
    ["upstream key", CANARY],
    ["session secret", SESSION_SECRET],
    ["VAPID private key", VAPID_PRIVATE_KEY],
    ["import token", lock.token!],
  ];
}

function expectNoSecretIn(exchanges: { url: string; text: string }[]): void {
  const upstreamHost = new URL(embedded.url).host;
  const secrets = serverSecrets();
  for (const { url, text } of exchanges) {
    expect(text.includes(upstreamHost), `upstream address in ${url}`).toBe(false);
    for (const [name, secret] of secrets) expect(text.includes(secret), `${name} in ${url}`).toBe(false);
  }
}

describe("the upstream key stays on the server", () => {
  it("appears in no response of a crawl of every page and API route, nor in the client bundle", async () => {
    const calls = { data: await getData<{ callId: string; status: string }[]>("/api/calls?pageSize=50") };
    const call = calls.data.find((c) => c.status === "enriched") ?? calls.data[0];
    expect(call).toBeDefined();
    const earnings = (await (await get("/api/calendar/earnings?pageSize=5")).json()) as {
      data: { ticker: string }[];
    };
    const symbol = earnings.data[0]?.ticker ?? "AAPL";
    // An old call's MP3 is prepared upstream on first demand (our route answers a deliberate 503 until then): crawl
    // once it exists, so every route below must answer below 500.
    for (const deadline = Date.now() + 150_000; ;) {
      const detail = (await (await get(`/api/calls/${call!.callId}`)).json()) as {
        data: { hasMp3: boolean };
      };
      if (detail.data.hasMp3) break;
      if (Date.now() > deadline) throw new Error(`the MP3 of ${call!.callId} was not ready within 150 s`);
      await new Promise((r) => setTimeout(r, 2000));
    }
    const { pages, api } = appPaths(call!.callId, symbol);
    const extra = [
      "/login",
      "/api/session",
      "/api/health",
      "/nope",
      "/api/calls/zzz",
      "/api/fundamentals/nope",
      "/calls/ffffffffffffffffffffffff",
    ];
    const scripts = new Set<string>();
    for (const path of [...pages, ...api.filter((p) => !p.startsWith("/api/stream")), ...extra]) {
      const response = await get(path, path.endsWith(".mp3") ? { range: "bytes=0-1023" } : {});
      expect(response.status, path).toBeLessThan(500);
      if (response.headers.get("content-type")?.includes("text/html")) {
        const html = await response.text();
        for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g))
          scripts.add(m[1]!.replace(/&amp;/g, "&"));
      }
    }
    const playlist = await (await get(`/api/calls/${call!.callId}/audio/playlist.m3u8`)).text();
    for (const line of playlist
      .split("\n")
      .filter((l) => l && !l.startsWith("#"))
      .slice(0, 3)) {
      await get(new URL(line, `${base}/api/calls/${call!.callId}/audio/`).pathname);
    }
    for (const src of scripts) await get(src);
    // A few seconds of the live stream.
    await readStream("/api/stream?tickers=*", 2500);

    expect(seen.length).toBeGreaterThan(30);
    expectNoSecretIn(seen);
    const bundle = files(join(root, distDir, "static"));
    expect(bundle.length).toBeGreaterThan(5);
    for (const file of bundle) {
      const bytes = readFileSync(file);
      for (const secret of [CANARY, SESSION_SECRET, VAPID_PRIVATE_KEY])
        expect(bytes.includes(secret), file).toBe(false);
    }
  }, 330_000);

  it("stays out of the workspace's answers, of what goes to webhooks and push services, and every route is crawled", async () => {
    const calls = {
      data: await getData<{ callId: string; status: string; symbol: string }[]>("/api/calls?pageSize=50"),
    };
    const live = calls.data.find((c) => c.status === "live");
    const call = live ?? calls.data[0]!;
    const symbol = call.symbol;
    const created = async (method: string, path: string, body?: unknown) => {
      const response = await exchange(method, path, body);
      if (response.status >= 300)
        throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.status === 204
        ? null
        : ((await response.json()) as { data: Record<string, unknown> }).data;
    };

    // Watchlists and their calendar.
    const list = (await created("POST", "/api/watchlists", { name: "Leak check", tickers: [symbol] }))!;
    await created("PATCH", `/api/watchlists/${list.id}`, { add: ["AAPL"] });
    await get("/api/watchlists");
    await get(`/api/watchlists/${list.id}/calendar?kind=earnings`);
    // A rule whose webhook path holds a secret (as Slack's do), on a word every live call says.
    const rule = (await created("POST", "/api/alert-rules", {
      kind: "keyword",
      phrase: "the",
      webhookUrl: `http://${receiverHost}/hook/${WEBHOOK_SECRET}`,
    }))!;
    ownerSecrets.push(WEBHOOK_SECRET);
    await created("PATCH", `/api/alert-rules/${rule.id}`, { name: "Leak check" });
    await get("/api/alert-rules");
    // Push: the public key, a subscription on the allowlisted receiver.
    const vapid = (await (await get("/api/alerts/push")).json()) as { data: { publicKey: string } };
    expect(vapid.data.publicKey).toBe(VAPID_PUBLIC_KEY);
    const ua = createECDH("prime256v1");
    ua.generateKeys();
    await created("POST", "/api/alerts/push", {
      endpoint: `http://${receiverHost}/push/leak`,
      keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
    });
    // The calendar feed: its URL is shown once to its owner, and its token is in no log line.
    const feed = (await created("POST", "/api/feeds"))!;
    const feedPath = new URL(String(feed.url)).pathname;
    ownerSecrets.push(feedPath.slice("/api/feeds/".length, -".ics".length));
    await get("/api/feeds");
    expect((await get(feedPath)).status).toBe(200);
    // Notes, as JSON and as Markdown.
    const note = (await created("POST", `/api/calls/${call.callId}/notes`, {
      text: "Margins & <guidance>",
      atMs: 1_000,
    }))!;
    await get(`/api/calls/${call.callId}/notes`);
    await get(`/api/calls/${call.callId}/notes?format=md`);
    await created("DELETE", `/api/calls/${call.callId}/notes/${note.id}`);
    await get(`/api/calls/${call.callId}/insights`);
    await get(`/api/search?q=revenue`);
    await get(`/search?q=revenue`);
    await get("/watchlists");
    await get("/alerts");
    await get("/api/session");

    // Until the rule has fired and its webhook and push deliveries have gone out (a live call says "the" often).
    for (const deadline = Date.now() + 120_000; ;) {
      const hooks = received.filter((r) => r.path.startsWith("/hook/")).length;
      const pushes = received.filter((r) => r.path.startsWith("/push/")).length;
      if (hooks > 0 && pushes > 0) break;
      if (Date.now() > deadline)
        throw new Error(
          `no delivery within 120 s (webhooks ${hooks}, pushes ${pushes}; live call: ${Boolean(live)})`,
        );
      await new Promise((r) => setTimeout(r, 1000));
    }
    await readStream("/api/alerts/stream", 2500);
    const alerts = (await (await get("/api/alerts?limit=5")).json()) as { data: { id: string }[] };
    expect(alerts.data.length).toBeGreaterThan(0);
    await created("POST", `/api/alerts/${alerts.data[0]!.id}/read`);
    await created("POST", "/api/alerts/read", {});
    const mute = (await created("POST", "/api/alerts/mutes", { scope: "call", callId: call.callId }))!;
    await get("/api/alerts/mutes");
    await created("DELETE", `/api/alerts/mutes/${mute.id}`);
    // The import door, with a wrong token: refused, and the answer names no right one.
    expect(
      (await exchange("POST", "/api/archive/import", { calls: [] }, { authorization: "Bearer wrong" }))
        .status,
    ).toBe(401);
    await created("DELETE", "/api/alerts/push", { endpoint: `http://${receiverHost}/push/leak` });
    await created("DELETE", `/api/alert-rules/${rule.id}`);
    await created("DELETE", `/api/watchlists/${list.id}`);
    await created("DELETE", "/api/feeds");
    expect((await get(feedPath)).status).toBe(404);

    expectNoSecretIn(seen);
    expectNoSecretIn(received.map(({ path, text }) => ({ url: `(sent to the receiver) ${path}`, text })));
    // Every page and API route of the app was crawled by this test or the first one.
    const crawled = seen.map((s) => s.url);
    const missed = appRoutes()
      .filter(({ pattern }) => !crawled.some((url) => pattern.test(url)))
      .map(({ file }) => file);
    expect(missed, "routes the crawl never reached: add them here").toEqual([]);
  }, 240_000);

  it("sends security headers and a nonce-based CSP, and Chromium reports no CSP violation on any page", async () => {
    const calls = { data: await getData<{ callId: string }[]>("/api/calls?pageSize=5") };
    const { pages } = appPaths(calls.data[0]!.callId, "AAPL");
    const nonces = new Set<string>();
    for (const path of pages) {
      const response = await get(path);
      const csp = response.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, path).toBeTruthy();
      nonces.add(nonce!);
      expect(csp).toContain("'strict-dynamic'");
      expect(csp).not.toContain("unsafe-eval");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("permissions-policy")).toContain("camera=()");
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get("strict-transport-security")).toBeNull();
      const html = await response.text();
      for (const tag of html.match(/<script\b[^>]*>/g) ?? [])
        expect(tag, `${path}: ${tag}`).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(pages.length);

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--headless", "--disable-gpu"],
    });
    try {
      const violations: string[] = [];
      const page = await browser.newPage();
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text()))
          violations.push(`${page.url()}: ${m.text()}`);
      });
      page.on("pageerror", (e) => violations.push(`${page.url()}: page error ${e.message}`));
      for (const path of pages) {
        await page.goto(base + path, { waitUntil: "load", timeout: 30_000 });
        await page.waitForTimeout(800);
        // Hydrated: React attached its handlers (the dashboard's links and buttons work).
        expect(
          await page.evaluate(() => document.querySelectorAll("script[nonce]").length),
          path,
        ).toBeGreaterThan(0);
      }
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);

  it("keeps rendering pages while the upstream fails", async () => {
    await embedded.setFaults({ restErrorRate: 1, restStatus: 503, durationSeconds: 30 });
    try {
      for (const path of ["/", "/calls", "/calendar/earnings"])
        expect((await get(path)).status, path).toBe(200);
      const earnings = await get("/api/calendar/earnings?pageSize=5");
      expect(earnings.status).toBe(200);
      // The health probe is cached for 15 s (a burst of checks costs one upstream call): the outage shows within it.
      let status = "";
      for (const deadline = Date.now() + 20_000; status !== "degraded" && Date.now() < deadline;) {
        status = ((await (await get("/api/health")).json()) as { status: string }).status;
        if (status !== "degraded") await new Promise((r) => setTimeout(r, 1000));
      }
      expect(status).toBe("degraded");
    } finally {
      await embedded.clearFaults();
    }
  }, 60_000);

  it("never writes a secret to the server's logs: the key, the session secret, the VAPID key, the import token, a feed token or a webhook's path", () => {
    expect(output.length).toBeGreaterThan(0);
    expect(output).toContain('"msg":"request"');
    expect(ownerSecrets.length, "the workspace crawl met the feed token and the webhook URL").toBe(2);
    for (const [name, secret] of [
      ...serverSecrets(),
      ...ownerSecrets.map((s): [string, string] => ["owner's secret", s]),
    ])
      expect(output.includes(secret), `${name} in the server's output`).toBe(false);
  });
});
