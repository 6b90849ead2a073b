/**
 * A fresh start's backfill (issue 26 item 3; docs/storage.md, "A polite backfill"): `npm start` on an empty PGlite
 * folder, with the embedded service as the launcher starts it (its rate limit on, its normal priority). The time runs
 * from the first 200 of `/api/health` to `archive.backfill.finishedAt`; then the embedded service's answers by status
 * (`/__embedded/stats` → `restRequests.byStatus`) and the app's own count of the 429s it received
 * (`callroom_upstream_rate_limited_total` in `/api/metrics`).
 *
 * Targets: the backfill finished in ≤ 60 s with `failed` 0, and no 429 from the embedded service.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startApp } from "./lib/app";
import { loadAverage, log, round, sleep } from "./lib/common";

export interface FreshStartBenchResult {
  backfillSeconds: number | null;
  calls: number;
  total: number;
  failed: number;
  /** The embedded service's REST answers by status, as it counted them. */
  embeddedByStatus: Record<string, number>;
  /** The 429s the app received, by lane (its metrics). */
  appRateLimited: Record<string, number>;
  loadAverage: number[];
}

interface Health {
  archive?: {
    calls?: number;
    backfill?: { done?: number; total?: number; failed?: number; finishedAt?: string | null };
  };
}

export async function runFreshStartBench(
  options: { reuseBuild?: boolean } = {},
): Promise<FreshStartBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "callroom-bench-fresh-"));
  try {
    const app = await startApp({
      reuseBuild: options.reuseBuild,
      deprioritizeEmbedded: false,
      // The embedded service's own rate limit, as npm start runs it (startApp turns it off for the other benchmarks).
      env: { CALLROOM_DATA_DIR: dataDir, EMBEDDED_RATE_LIMIT: "50" },
    });
    try {
      let health: Health = {};
      let backfillSeconds: number | null = null;
      const deadline = performance.now() + 10 * 60_000;
      while (performance.now() < deadline) {
        health = (await (await fetch(`${app.url}/api/health`)).json()) as Health;
        if (health.archive?.backfill?.finishedAt) {
          backfillSeconds = round((performance.now() - app.healthyAt) / 1000);
          break;
        }
        await sleep(250);
      }
      const stats = (await (await fetch(`${app.embeddedUrl}/__embedded/stats`)).json()) as {
        restRequests: { byStatus: Record<string, number> };
      };
      const metrics = await (await fetch(`${app.url}/api/metrics`)).text();
      const appRateLimited: Record<string, number> = {};
      for (const m of metrics.matchAll(/^callroom_upstream_rate_limited_total\{lane="(\w+)"\} (\d+)/gm))
        appRateLimited[m[1]!] = Number(m[2]);
      const result: FreshStartBenchResult = {
        backfillSeconds,
        calls: health.archive?.calls ?? 0,
        total: health.archive?.backfill?.total ?? 0,
        failed: health.archive?.backfill?.failed ?? 0,
        embeddedByStatus: stats.restRequests.byStatus,
        appRateLimited,
        loadAverage: loadAverage(),
      };
      log(`freshStart: ${JSON.stringify(result)}`);
      return result;
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
