/**
 * Scale-out fan-out on a real redis-server: one instance (the leader's live bus) vs two (leader + follower), each
 * with `SUBS` browser streams on its fan-out. Publishes `EVENTS` sentences through the fenced XADD path and prints events/s and the
 * publish→delivery latency percentiles per setup.
 *
 *   npx tsx --conditions=react-server bench/scale-fanout.ts [events=20000] [subs=500]
 */
import { Redis } from "ioredis";
import type { LivePayload } from "@/server/live/bus";
import { createBrowserFanout } from "@/server/live/fanout";
import { EPOCH_KEY } from "@/server/scale/leader";
import { RedisBus } from "@/server/scale/redis-bus";
import { startTestRedis } from "@/test/scale/redis-server";

const EVENTS = Number(process.argv[2] ?? 20_000);
const SUBS = Number(process.argv[3] ?? 500);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const CALL = "bbbbbbbbbbbbbbbbbbbbbbbb";

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(url: string, instances: number): Promise<string> {
  const clients: Redis[] = [];
  const conn = () => {
    const c = new Redis(url);
    clients.push(c);
    return c;
  };
  await conn().flushall();
  await conn().set(EPOCH_KEY, "1");
  const buses = Array.from(
    { length: instances },
    () => new RedisBus({ redis: conn(), tail: conn(), log: quiet, blockMs: 1_000 }),
  );
  await Promise.all(buses.map((h) => h.start()));
  const latencies: number[] = [];
  let delivered = 0;
  const total = EVENTS * SUBS * instances;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  for (const bus of buses) {
    const browsers = createBrowserFanout(bus);
    for (let s = 0; s < SUBS; s += 1) {
      browsers.subscribe({ tickers: "*", calls: [] }, null, (e) => {
        if (e.event !== "sentence") return;
        if (s === 0) latencies.push(Date.now() - Number(e.data.text.split(" ")[1]));
        delivered += 1;
        if (delivered === total) done();
      });
    }
  }
  const writer = buses[0]!;
  await writer.beginWriting(1);
  writer.publish({
    event: "call.started",
    symbol: "BNCH",
    data: { callId: CALL, symbol: "BNCH", name: "Bench", startTime: new Date().toISOString() },
  });
  const t0 = Date.now();
  for (let i = 0; i < EVENTS; i += 1) {
    writer.publish({
      event: "sentence",
      symbol: "BNCH",
      data: {
        callId: CALL,
        sequence: i,
        text: `s ${Date.now()}`,
        speaker: "A",
        startMs: i,
        endMs: i,
        confidence: null,
      },
    } as LivePayload);
    if (i % 200 === 199) await new Promise((r) => setImmediate(r));
  }
  await finished;
  const seconds = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  for (const h of buses) h.stop();
  for (const c of clients) c.disconnect();
  return `${instances} instance(s), ${SUBS} subscribers each: ${EVENTS} events in ${seconds.toFixed(2)} s = ${Math.round(EVENTS / seconds)} events/s published, ${Math.round(total / seconds)} deliveries/s; latency p50 ${pct(latencies, 50)} ms, p95 ${pct(latencies, 95)} ms, p99 ${pct(latencies, 99)} ms`;
}

const redis = await startTestRedis();
try {
  console.log(await run(redis.url, 1));
  console.log(await run(redis.url, 2));
} finally {
  await redis.stop();
}
