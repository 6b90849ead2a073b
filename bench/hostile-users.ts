/**
 * `npm run bench -- --only hostileUsers`: the reproductions of issue 27's review, rerun against a production build
 * (docs/workspace.md, "Hostile users: the review's attacks, rerun"). One app on its own data folder, three
 * attacks by the open instance's user, one after another:
 *
 * - push: 1,000 push subscriptions tried (20 are kept) and one rule on "the", 40 s;
 * - webhookTrickle: 10 rules on "the" to a receiver that sends its headers, then one byte every 5 s for ever, 2 min;
 * - webhookBurst: 100 rules on "the" to one receiver that answers at once, 40 s.
 *
 * `/api/health` is sampled every 100 ms throughout; its p95 on the quiet app (the first 10 s, measured in the same
 * run) is the baseline each attack's p95 is compared with. Loopback only: the receivers are allowlisted for webhooks
 * and push (CALLROOM_WEBHOOK_ALLOWLIST, CALLROOM_PUSH_ALLOWLIST).
 */
import { createECDH, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, type RunningApp } from "./lib/app";
import { loadAverage, log, percentile, round, sleep } from "./lib/common";

interface Receiver {
  server: Server;
  host: string;
  posts: number;
  open: () => number;
  close(): void;
}

/** A loopback HTTP receiver counting the requests it has read whole and the sockets open to it. */
async function receiver(answer: (res: ServerResponse) => void): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const server = createServer();
  const r: Receiver = {
    server,
    host: "",
    posts: 0,
    open: () => sockets.size,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
  server.on("request", (req, res) => {
    req.resume();
    req.on("end", () => {
      r.posts += 1;
      answer(res);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  r.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return r;
}

/** `/api/health` every 100 ms for `ms`: its latencies. */
async function sampleHealth(app: RunningApp, ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  const latencies: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    await fetch(`${app.url}/api/health`)
      .then((r) => r.arrayBuffer())
      .catch(() => {});
    latencies.push(performance.now() - started);
    await sleep(Math.max(0, 100 - (performance.now() - started)));
  }
  return latencies;
}

/** Until the archive's first backfill is over (its writes would weigh on the baseline), at most 3 minutes. */
async function settle(app: RunningApp): Promise<void> {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    const health = (await fetch(`${app.url}/api/health`)
      .then((r) => r.json())
      .catch(() => null)) as { archive?: { backfill?: { finishedAt?: string | null } } } | null;
    if (health?.archive?.backfill?.finishedAt) return;
    await sleep(2_000);
  }
  log("hostileUsers: the archive backfill did not finish within 3 minutes; measuring anyway");
}

const p95 = (values: number[]) => round(percentile(values, 95), 0);

function client(app: RunningApp) {
  return async (path: string, method: string, body?: unknown): Promise<Response> => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: { "content-type": "application/json", origin: app.url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await response
      .clone()
      .arrayBuffer()
      .catch(() => {});
    return response;
  };
}

async function ruleOnThe(api: ReturnType<typeof client>, webhookUrl?: string): Promise<string | null> {
  const response = await api("/api/alert-rules", "POST", { kind: "keyword", phrase: "the", webhookUrl });
  if (!response.ok) return null;
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function push(app: RunningApp, service: Receiver, baselineP95: number) {
  const api = client(app);
  await api("/api/alerts/push", "GET"); // the VAPID keys exist before the first subscription
  const ua = createECDH("prime256v1");
  ua.generateKeys();
  const accepted: string[] = [];
  const statuses: Record<number, number> = {};
  for (let i = 0; i < 1_000; i++) {
    const endpoint = `http://${service.host}/push/${i}`;
    const response = await api("/api/alerts/push", "POST", {
      endpoint,
      keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
    });
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.ok) accepted.push(endpoint);
  }
  const rule = await ruleOnThe(api);
  const before = service.posts;
  const started = Date.now();
  const under = await sampleHealth(app, 40_000);
  const pushes = service.posts - before;
  const seconds = (Date.now() - started) / 1000;
  if (rule) await api(`/api/alert-rules/${rule}`, "DELETE");
  for (const endpoint of accepted) await api("/api/alerts/push", "DELETE", { endpoint });
  return {
    subscriptionsTried: 1_000,
    subscriptionsAccepted: accepted.length,
    answers: statuses,
    pushes,
    pushesPerSecond: round(pushes / seconds, 1),
    healthP95UnderAttackMs: p95(under),
    healthP95Ratio: round(p95(under) / Math.max(1, baselineP95), 2),
    healthMaxUnderAttackMs: round(Math.max(...under), 0),
    loadAverage: loadAverage(),
  };
}

async function webhookTrickle(app: RunningApp, trickle: Receiver, baselineP95: number) {
  const api = client(app);
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const id = await ruleOnThe(api, `http://${trickle.host}/hook/${i}`);
    if (id) ids.push(id);
  }
  let peakOpen = 0;
  const watch = setInterval(() => (peakOpen = Math.max(peakOpen, trickle.open())), 250);
  const under = await sampleHealth(app, 120_000);
  clearInterval(watch);
  const openAfter2Min = trickle.open();
  const posts = trickle.posts;
  for (const id of ids) await api(`/api/alert-rules/${id}`, "DELETE");
  await sleep(5_000);
  return {
    rules: ids.length,
    posts,
    peakOpenSockets: peakOpen,
    openSocketsAfter2Min: openAfter2Min,
    openSockets5sAfterDeletingTheRules: trickle.open(),
    healthP95UnderAttackMs: p95(under),
    healthP95Ratio: round(p95(under) / Math.max(1, baselineP95), 2),
    loadAverage: loadAverage(),
  };
}

async function webhookBurst(app: RunningApp, target: Receiver, baselineP95: number) {
  const api = client(app);
  const ids: string[] = [];
  for (let i = 0; i < 100; i++) {
    const id = await ruleOnThe(api, `http://${target.host}/hook`);
    if (id) ids.push(id);
  }
  const before = target.posts;
  const under = await sampleHealth(app, 40_000);
  const posts = target.posts - before;
  for (const id of ids) await api(`/api/alert-rules/${id}`, "DELETE");
  return {
    rules: ids.length,
    postsIn40s: posts,
    healthP95UnderAttackMs: p95(under),
    healthP95Ratio: round(p95(under) / Math.max(1, baselineP95), 2),
    loadAverage: loadAverage(),
  };
}

export async function runHostileUsersBench(options: { reuseBuild?: boolean } = {}) {
  const pushService = await receiver((res) => {
    res.statusCode = 201;
    res.end();
  });
  // Headers at once, then one byte every 5 s, for ever.
  const trickle = await receiver((res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => res.write("."), 5_000);
    res.on("close", () => clearInterval(timer));
  });
  const burst = await receiver((res) => res.end());
  const hosts = [pushService.host, trickle.host, burst.host].join(",");
  const dataDir = mkdtempSync(join(tmpdir(), "callroom-bench-hostile-"));
  const app = await startApp({
    reuseBuild: options.reuseBuild,
    env: { CALLROOM_WEBHOOK_ALLOWLIST: hosts, CALLROOM_PUSH_ALLOWLIST: hosts, CALLROOM_DATA_DIR: dataDir },
  });
  try {
    await settle(app);
    const baseline = await sampleHealth(app, 10_000);
    const baselineP95 = p95(baseline);
    log(`hostileUsers: quiet /api/health p95 ${baselineP95} ms; push attack`);
    const pushFigures = await push(app, pushService, baselineP95);
    log(`hostileUsers: ${JSON.stringify(pushFigures)}; trickling webhook target, 2 minutes`);
    const trickleFigures = await webhookTrickle(app, trickle, baselineP95);
    log(`hostileUsers: ${JSON.stringify(trickleFigures)}; 100 rules to one webhook`);
    const burstFigures = await webhookBurst(app, burst, baselineP95);
    log(`hostileUsers: ${JSON.stringify(burstFigures)}`);
    return {
      healthP95QuietMs: baselineP95,
      push: pushFigures,
      webhookTrickle: trickleFigures,
      webhookBurst: burstFigures,
      loadAverage: loadAverage(),
    };
  } finally {
    await app.stop();
    for (const r of [pushService, trickle, burst]) r.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
