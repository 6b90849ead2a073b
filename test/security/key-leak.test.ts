import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
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
 * Heavy: builds into `.next-leak` when there is no build or the sources are newer (set CALLROOM_LEAK_REUSE_BUILD=1
 * to reuse an existing build while iterating).
 */

const CANARY = "callroom-leak-canary-93f1";
const SESSION_SECRET = "callroom-leak-canary-session-secret-0001";
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
const seen: { url: string; status: number; text: string }[] = [];

async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(base + path, { headers, redirect: "manual" });
  const buffer = Buffer.from(await response.arrayBuffer());
  const headerText = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  seen.push({ url: path, status: response.status, text: `${headerText}\n\n${buffer.toString("latin1")}` });
  return new Response(buffer, { status: response.status, headers: response.headers });
}

beforeAll(async () => {
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
  server = spawn(process.execPath, [join(root, "scripts/serve.mjs"), "start"], {
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
      LOG_LEVEL: "debug",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
});

describe("the upstream key stays on the server", () => {
  it("appears in no response of a crawl of every page and API route, nor in the client bundle", async () => {
    const calls = (await (await get("/api/calls?pageSize=50")).json()) as {
      data: { callId: string; status: string }[];
    };
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
    const controller = new AbortController();
    const sse = await fetch(`${base}/api/stream?tickers=*`, { signal: controller.signal });
    const reader = sse.body!.getReader();
    let sseText = "";
    const until = Date.now() + 2500;
    while (Date.now() < until) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), 500)),
      ]);
      if (chunk && !chunk.done) sseText += Buffer.from(chunk.value).toString("utf8");
    }
    controller.abort();
    seen.push({ url: "/api/stream", status: sse.status, text: sseText });

    expect(seen.length).toBeGreaterThan(30);
    const upstreamHost = new URL(embedded.url).host;
    for (const { url, text } of seen) {
      expect(text.includes(CANARY), `key in ${url}`).toBe(false);
      expect(text.includes(upstreamHost), `upstream address in ${url}`).toBe(false);
      expect(text.includes(SESSION_SECRET), `session secret in ${url}`).toBe(false);
    }
    const bundle = files(join(root, distDir, "static"));
    expect(bundle.length).toBeGreaterThan(5);
    for (const file of bundle) expect(readFileSync(file).includes(CANARY), file).toBe(false);
  }, 330_000);

  it("sends security headers and a nonce-based CSP, and Chromium reports no CSP violation on any page", async () => {
    const calls = (await (await get("/api/calls?pageSize=5")).json()) as { data: { callId: string }[] };
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

  it("never writes the key or the session secret to the server's logs", () => {
    expect(output.length).toBeGreaterThan(0);
    expect(output).toContain('"msg":"request"');
    expect(output.includes(CANARY)).toBe(false);
    expect(output.includes(SESSION_SECRET)).toBe(false);
  });
});
