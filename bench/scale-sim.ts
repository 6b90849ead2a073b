/**
 * The archive beyond one library (issue 26 item 7; docs/scale.md): a synthetic archive of 5 M sentences in a
 * PostgreSQL server started for the run, loaded the way a bulk load should be (rows first, the search index built
 * after), then the same mixed searches as `library`, and the cost of adding sentences to an index that size.
 *
 * The text is generated: words drawn from a Zipf-like distribution over a 30,000-word vocabulary of made-up words,
 * 8–24 words a sentence, 455 sentences a call, 11,000 calls over ten years of 2,000 tickers. Real language is more
 * skewed (a few words in every other sentence); the figures bound the index, not the phrasing.
 *
 * `npm run bench -- --only scaleSim` (spawns this with the react-server condition), or alone:
 * `node --conditions=react-server --import tsx bench/scale-sim.ts [--sentences 5000000]`.
 */
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { runChildBench } from "./lib/child-bench";
import { timeQueries } from "./lib/time-queries";
import { percentile, round, seededRandom } from "./lib/common";

export interface ScaleSimResult {
  sentences: number;
  calls: number;
  loadMs: number;
  /** Rows loaded per second without the search index, then the index built over them. */
  loadRowsPerSecond: number;
  indexBuildMs: number;
  tableMB: number;
  searchIndexMB: number;
  totalMB: number;
  bytesPerSentence: number;
  /** Adding sentences (500 a statement) to the full index, per sentence. */
  insertWithIndexUsPerSentence: number;
  searchP50Ms: number;
  searchP95Ms: number;
  searchP99Ms: number;
  p95ByKind: Record<string, number>;
  loadAverage: number[];
}

export async function runScaleSimBench(): Promise<ScaleSimResult> {
  return runChildBench<ScaleSimResult>("bench/scale-sim.ts", "scale simulation");
}

/* ------------------------------------------------------------------ the child */

const VOCABULARY = 30_000;
const PER_CALL = 455;
const TICKERS = 2_000;

/** Made-up words that no stemmer shortens or drops: consonant-vowel syllables. */
function vocabulary(): string[] {
  const cons = "bdfgklmnprstvz";
  const vow = "aeiou";
  const words: string[] = [];
  for (let i = 0; words.length < VOCABULARY; i += 1) {
    let n = i;
    let w = "";
    do {
      w += cons[n % cons.length]! + vow[Math.floor(n / cons.length) % vow.length]!;
      n = Math.floor(n / (cons.length * vow.length));
    } while (n > 0);
    words.push(`${w}x`);
  }
  return words;
}

async function child(total: number): Promise<ScaleSimResult> {
  const { startTestPostgres } = await import("../test/storage/postgres-server");
  const { createDatabase, queryRows } = await import("../server/db/database");
  const { searchArchive } = await import("../server/archive/search");
  const { searchQuerySchema } = await import("../lib/schemas/search");
  const { sql } = await import("drizzle-orm");
  const pg = (await import("pg")).default;

  const words = vocabulary();
  const rand = seededRandom(20261127);
  // Zipf-like: rank r drawn with probability ~ 1/r.
  const zipf = () => Math.min(VOCABULARY - 1, Math.floor(Math.exp(rand() * Math.log(VOCABULARY))) - 1);
  const sentence = () => {
    const n = 8 + Math.floor(rand() * 17);
    const out: string[] = [];
    for (let i = 0; i < n; i += 1) out.push(words[Math.max(0, zipf())]!);
    return `${out.join(" ")}.`;
  };

  const server = await startTestPostgres();
  const log = { info() {}, warn() {}, error() {} };
  try {
    const database = await createDatabase({ url: server.url, dataDir: "", logger: log });
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const calls = Math.ceil(total / PER_CALL);
    const start = Date.UTC(2016, 0, 1);
    const callRow = (i: number) => {
      const quarterIndex = Math.floor((i / calls) * 40);
      const year = 2016 + Math.floor(quarterIndex / 4);
      return {
        id: `sim-${i}`,
        symbol: `S${String(i % TICKERS).padStart(4, "0")}`,
        start: new Date(start + (i / calls) * 10 * 365.25 * 86_400_000).toISOString(),
        quarter: `${year}-Q${(quarterIndex % 4) + 1}`,
      };
    };
    for (let i = 0; i < calls; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, calls - i) }, (_, k) => callRow(i + k));
      await client.query(
        `INSERT INTO archive_calls (call_id, symbol, name, title, quarter, start_time, status, segment_count, source)
         SELECT id, sym, sym, sym || ' call', q, st::timestamptz, 'completed', ${PER_CALL}, 'upstream'
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, sym, q, st)`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.symbol),
          rows.map((r) => r.quarter),
          rows.map((r) => r.start),
        ],
      );
    }
    // A bulk load: rows first, the search index after (docs/scale.md).
    await client.query("DROP INDEX archive_segments_search_idx");
    const phrases: { phrase: string; symbol: string }[] = [];
    const loadStarted = performance.now();
    const BATCH = 4_000;
    for (let done = 0; done < total; done += BATCH) {
      const n = Math.min(BATCH, total - done);
      const ids: string[] = [];
      const seqs: number[] = [];
      const syms: string[] = [];
      const starts: string[] = [];
      const quarters: string[] = [];
      const texts: string[] = [];
      for (let k = 0; k < n; k += 1) {
        const index = done + k;
        const call = callRow(Math.floor(index / PER_CALL));
        const text = sentence();
        ids.push(call.id);
        seqs.push((index % PER_CALL) + 1);
        syms.push(call.symbol);
        starts.push(call.start);
        quarters.push(call.quarter);
        texts.push(text);
        if (index % 50_000 === 7) {
          const t = text.replace(/\.$/, "").split(" ");
          phrases.push({ phrase: t.slice(2, 5).join(" "), symbol: call.symbol });
        }
      }
      await client.query(
        `INSERT INTO archive_segments (call_id, sequence, symbol, call_start, quarter, speaker, role, section,
                                       start_ms, end_ms, text)
         SELECT id, seq, sym, st::timestamptz, q, 'SPEAKER_1', 'executive',
                CASE WHEN seq > ${Math.floor(PER_CALL * 0.6)} THEN 'qa' ELSE 'prepared' END,
                seq * 5000, seq * 5000 + 4500, tx
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[])
              AS t(id, seq, sym, st, q, tx)`,
        [ids, seqs, syms, starts, quarters, texts],
      );
      if ((done / BATCH) % 100 === 0) process.stderr.write(`scale-sim: ${done + n} sentences loaded\n`);
    }
    const loadMs = performance.now() - loadStarted;
    const indexStarted = performance.now();
    await client.query("SET maintenance_work_mem = '256MB'");
    await client.query("CREATE INDEX archive_segments_search_idx ON archive_segments USING gin (search)");
    const indexBuildMs = performance.now() - indexStarted;
    await client.query("VACUUM (ANALYZE) archive_segments");
    await client.query("VACUUM (ANALYZE) archive_calls");
    const [sizes] = (
      await client.query<{ table: string; idx: string; total: string }>(
        `SELECT pg_relation_size('archive_segments') AS table,
                pg_relation_size('archive_segments_search_idx') AS idx,
                pg_total_relation_size('archive_segments') AS total`,
      )
    ).rows;

    // Adding sentences to the full index: one more call's worth, 500 a statement, twenty times.
    const extra = 10_000;
    const insertStarted = performance.now();
    for (let done = 0; done < extra; done += 500) {
      const texts = Array.from({ length: 500 }, () => sentence());
      await client.query(
        `INSERT INTO archive_segments (call_id, sequence, symbol, call_start, quarter, speaker, role, section,
                                       start_ms, end_ms, text)
         SELECT 'sim-0', 100000 + $1::int + n, 'S0000', now(), '2016-Q1', 'SPEAKER_1', 'executive', 'prepared',
                0, 1, tx
         FROM unnest($2::text[]) WITH ORDINALITY AS t(tx, n)`,
        [done, texts],
      );
    }
    const insertWithIndexUsPerSentence = ((performance.now() - insertStarted) * 1000) / extra;
    await client.end();

    // The mixed searches: rare words (ranks 5,000–30,000), phrases from generated sentences with their ticker, OR,
    // ticker and quarter filters on medium words (ranks 200–2,000).
    const qrand = seededRandom(7);
    const rare = () => words[5_000 + Math.floor(qrand() * 25_000)]!;
    const medium = () => words[200 + Math.floor(qrand() * 1_800)]!;
    const queries: { kind: string; raw: Record<string, string> }[] = [];
    for (let i = 0; i < 200; i += 1) {
      const call = callRow(Math.floor(qrand() * calls));
      switch (i % 5) {
        case 0:
          queries.push({ kind: "rare", raw: { q: rare() } });
          break;
        case 1: {
          const p = phrases[i % phrases.length]!;
          queries.push({ kind: "phrase", raw: { q: `"${p.phrase}"`, tickers: p.symbol } });
          break;
        }
        case 2:
          queries.push({ kind: "or", raw: { q: `${rare()} OR ${rare()} OR ${medium()}` } });
          break;
        case 3:
          queries.push({ kind: "ticker", raw: { q: medium(), tickers: call.symbol } });
          break;
        default:
          queries.push({ kind: "quarter", raw: { q: rare(), quarter: call.quarter } });
      }
    }
    const { times, byKind } = await timeQueries(queries, (q) =>
      searchArchive(database.db, searchQuerySchema.parse(q.raw)),
    );
    const counted = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM archive_segments`,
    );
    await database.close();
    const mb = (v: string | undefined) => Math.round(Number(v ?? 0) / 1e5) / 10;
    return {
      sentences: Number(counted[0]?.n ?? total),
      calls,
      loadMs: Math.round(loadMs),
      loadRowsPerSecond: Math.round(total / (loadMs / 1000)),
      indexBuildMs: Math.round(indexBuildMs),
      tableMB: mb(sizes?.table),
      searchIndexMB: mb(sizes?.idx),
      totalMB: mb(sizes?.total),
      bytesPerSentence: Math.round(Number(sizes?.total ?? 0) / total),
      insertWithIndexUsPerSentence: Math.round(insertWithIndexUsPerSentence),
      searchP50Ms: round(percentile(times, 50)),
      searchP95Ms: round(percentile(times, 95)),
      searchP99Ms: round(percentile(times, 99)),
      p95ByKind: Object.fromEntries([...byKind].map(([k, v]) => [k, round(percentile(v, 95))])),
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf("--sentences");
  const total = at > 0 ? Number(process.argv[at + 1]) : 5_000_000;
  const result = await child(total);
  console.log(JSON.stringify(result));
  process.exit(0);
}
