/**
 * `npm run import` as a person runs it (issue 25 item 1, issue 26's interfaces; docs/storage.md, "Imported calls"):
 * the script itself in its own process, on a PGlite folder that is free, then on one a running app holds.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBatchSchema } from "@/lib/schemas/archive-import";
import { createDatabase, queryRows } from "@/server/db/database";
import { claimFolder } from "@/server/db/folder-owner.mjs";
import { quietLog } from "./drivers";
import { termDrift } from "./term-drift";
import { corpusTranscript } from "./transcript-files";

interface Run {
  code: number | null;
  lines: Record<string, unknown>[];
  stderr: string;
}

function runImport(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/import.ts", ...args],
    { env: { ...process.env, DATABASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) =>
    child.once("exit", (code) =>
      resolve({
        code,
        stderr,
        lines: out
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      }),
    ),
  );
}

const root = mkdtempSync(path.join(tmpdir(), "callroom-import-cli-"));
const corpus = path.join(root, "corpus");

beforeAll(() => {
  mkdirSync(corpus);
  writeFileSync(path.join(corpus, "QLFR_q1_2022.json"), JSON.stringify(corpusTranscript()));
  writeFileSync(
    path.join(corpus, "QLFR_q2_2022.json"),
    JSON.stringify(corpusTranscript({ remarks: ["Operating margin reached 18% in the quarter."] })),
  );
  writeFileSync(path.join(corpus, "BRKN_q3_2021.json"), "{ not json");
  // Read as a transcript, refused by the database (text may not hold a NUL): in the same batch as the good files.
  writeFileSync(
    path.join(corpus, "NULB_q1_2022.json"),
    JSON.stringify(corpusTranscript({ remarks: ["Shipments \u0000 rose."] })),
  );
  writeFileSync(path.join(corpus, "SOURCE.md"), "# where the files came from\n");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("npm run import", { timeout: 180_000 }, () => {
  it("imports a folder's .json files into a new PGlite folder, one line each, a bad file an error line", async () => {
    const dataDir = path.join(root, "fresh");
    const first = await runImport(["--json", corpus], { CALLROOM_DATA_DIR: dataDir });
    expect(first.code).toBe(1);
    expect(first.lines).toHaveLength(4);
    const byName = new Map(first.lines.map((l) => [path.basename(String(l.file)), l]));
    expect([...byName.keys()].sort()).toEqual([
      "BRKN_q3_2021.json",
      "NULB_q1_2022.json",
      "QLFR_q1_2022.json",
      "QLFR_q2_2022.json",
    ]);
    expect(byName.get("BRKN_q3_2021.json")).toMatchObject({ error: expect.any(String) });
    // Its batch failed whole; the good files of that batch were stored again one by one.
    expect(byName.get("NULB_q1_2022.json")).toMatchObject({ error: expect.stringContaining("not stored") });
    const good = byName.get("QLFR_q1_2022.json")!;
    expect(good).toMatchObject({ symbol: "QLFR", callId: expect.stringMatching(/^imp-/) });
    expect(good.sentences).toBeGreaterThan(5);

    // Again, the good files alone: the same ids, nothing duplicated, exit 0.
    const again = await runImport(
      ["--json", path.join(corpus, "QLFR_q1_2022.json"), path.join(corpus, "QLFR_q2_2022.json")],
      { CALLROOM_DATA_DIR: dataDir },
    );
    expect(again.code).toBe(0);
    expect(again.lines.map((l) => l.callId)).toEqual([
      byName.get("QLFR_q1_2022.json")!.callId,
      byName.get("QLFR_q2_2022.json")!.callId,
    ]);

    // What the lines promised is in the folder: the calls, their quarters, their sentences, once.
    const db = await createDatabase({ dataDir, logger: quietLog });
    try {
      const rows = await queryRows<{ call_id: string; quarter: string; segment_count: number; n: number }>(
        db.db,
        sql`SELECT c.call_id, c.quarter, c.segment_count,
                   (SELECT count(*)::int FROM archive_segments s WHERE s.call_id = c.call_id) AS n
            FROM archive_calls c ORDER BY c.call_id`,
      );
      expect(rows.map((r) => r.quarter).sort()).toEqual(["2022-Q1", "2022-Q2"]);
      for (const r of rows) {
        const line = first.lines.find((l) => l.callId === r.call_id)!;
        expect(r.n).toBe(line.sentences);
        expect(r.segment_count).toBe(line.sentences);
      }
    } finally {
      await db.close();
    }
  });

  it("leaves whole, counted calls or none when it is killed while storing", async () => {
    const folder = path.join(root, "many");
    mkdirSync(folder);
    // Enough to keep the import storing for several seconds (about 2.5 s for 24 files of 300 on a quiet machine), so
    // the kill below lands inside the batch's transaction, not after the process has finished.
    const remarks = Array.from(
      { length: 600 },
      (_, i) => `Freight volume ${i} rose on pricing in region ${i % 7}.`,
    );
    for (let i = 0; i < 24; i += 1)
      writeFileSync(
        path.join(folder, `KILL_q${(i % 4) + 1}_${2000 + i}.json`),
        JSON.stringify(corpusTranscript({ remarks })),
      );
    const dataDir = path.join(root, "killed");
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/import.ts", "--json", folder],
      {
        env: { ...process.env, DATABASE_URL: "", CALLROOM_DATA_DIR: dataDir },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    // Listened for before anything else: a child that ended on its own must not leave the test waiting for an
    // exit it already made.
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    // Killed (its database worker with it) while the batch's transaction writes.
    await Promise.race([
      new Promise<void>((resolve) =>
        child.stderr.on("data", (c: Buffer) => {
          if (c.toString().includes("importing")) setTimeout(resolve, 500);
        }),
      ),
      exited,
    ]);
    child.kill("SIGKILL");
    // The kill landed while the import was still at work; otherwise this test would prove nothing.
    expect(await exited).toBe("SIGKILL");

    // The folder reopens (the dead process's lock is taken over): each call whole, every count equal to a recount.
    const db = await createDatabase({ dataDir, logger: quietLog });
    try {
      const calls = await queryRows<{ segment_count: number; n: number }>(
        db.db,
        sql`SELECT c.segment_count, (SELECT count(*)::int FROM archive_segments s WHERE s.call_id = c.call_id) AS n
            FROM archive_calls c`,
      );
      for (const c of calls) expect(c.n).toBe(c.segment_count);
      expect((await termDrift(db)).differences).toBe(0);
    } finally {
      await db.close();
    }
    // Run again, it finishes the job.
    const again = await runImport(["--json", folder], { CALLROOM_DATA_DIR: dataDir });
    expect(again.code).toBe(0);
    expect(again.lines).toHaveLength(24);
    const after = await createDatabase({ dataDir, logger: quietLog });
    try {
      const [n] = await queryRows<{ n: number }>(after.db, sql`SELECT count(*)::int AS n FROM archive_calls`);
      expect(n!.n).toBe(24);
      expect((await termDrift(after)).differences).toBe(0);
    } finally {
      await after.close();
    }
  });

  it("goes through the app that holds the folder, with the token from the folder's lock", async () => {
    const dataDir = path.join(root, "held");
    mkdirSync(dataDir);
    // This test process plays the running app: it holds the folder as the server does and answers as it does.
    const lock = claimFolder(dataDir, "server");
    const received: unknown[] = [];
    const server: Server = createServer((req, res) => {
      if (req.url === "/api/health") return void res.end("{}");
      if (req.url !== "/api/archive/import" || req.method !== "POST") return void res.writeHead(404).end();
      if (req.headers.authorization !== `Bearer ${lock.token}`) return void res.writeHead(401).end();
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const batch = importBatchSchema.parse(JSON.parse(body));
        received.push(...batch.calls);
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify({
            data: batch.calls.map(({ call }) => ({
              callId: call.callId.toLowerCase(),
              symbol: call.symbol,
              sentences: call.segments.length,
              stored: true,
            })),
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = String((server.address() as AddressInfo).port);
      const run = await runImport(["--json", path.join(corpus, "QLFR_q1_2022.json")], {
        CALLROOM_DATA_DIR: dataDir,
        PORT: port,
        HOST: "127.0.0.1",
      });
      expect(run.code).toBe(0);
      expect(received).toHaveLength(1);
      expect(run.lines).toEqual([
        expect.objectContaining({ symbol: "QLFR", callId: expect.stringMatching(/^imp-/) }),
      ]);
      expect(run.stderr).toContain(`127.0.0.1:${port}`);

      // No app answering where PORT says: refused, naming the folder and what to do.
      const closed = await runImport(["--json", path.join(corpus, "QLFR_q1_2022.json")], {
        CALLROOM_DATA_DIR: dataDir,
        PORT: "1",
        HOST: "127.0.0.1",
      });
      expect(closed.code).toBe(1);
      expect(closed.stderr).toContain(path.resolve(dataDir));
      expect(closed.stderr).toMatch(/Set PORT/);
      expect(closed.lines).toEqual([expect.objectContaining({ error: expect.any(String) })]);
    } finally {
      server.close();
      lock.release();
    }
  });
});
