/**
 * The same embedded universe served in both wire dialects (docs/upstream.md §8): the contract's shapes and the real
 * service's documented ones. Through Callroom's own `/api` routes, 20 companies' fundamentals (every kind), 10 calls
 * with their summaries, the calendars and the summary list must read the same, field by field. What one dialect lacks
 * is listed in `DIALECT_ONLY` and nowhere else.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { GET as getCallRoute } from "@/app/api/calls/[callId]/route";
import { GET as getCallSummaryRoute } from "@/app/api/calls/[callId]/summary/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { GET as earningsRoute } from "@/app/api/calendar/earnings/route";
import { GET as maRoute } from "@/app/api/calendar/ma/route";
import { GET as listSummariesRoute } from "@/app/api/summaries/route";
import { GET as getFundamentalsRoute } from "@/app/api/fundamentals/[kind]/route";
import type { CallListItem } from "@/lib/schemas/calls";
import { FUNDAMENTALS_KINDS, type FundamentalsKind } from "@/lib/schemas/fundamentals";
import { DEFAULT_SEED } from "@/embedded/config";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { testClock } from "@/embedded/test/test-clock";
import { buildUniverse } from "@/embedded/universe/index";
import { parseFrame } from "@/server/upstream/stream/frames";
import { getRuntime } from "@/server/runtime";
import { fetchMediaLinks } from "@/server/upstream/calls";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";

type Dialect = "contract" | "documented";
const DIALECTS: readonly Dialect[] = ["contract", "documented"];

/**
 * Fields only one dialect carries, by where they sit in our API's answers (a path of member names; `*` = any array
 * index). Everything else must be equal.
 * - `processingTimeMs`: the service's own timing of each answer, never the same twice.
 * - a call's `headline`: the documented service writes one; the contract's call has only its title.
 */
const DIALECT_ONLY = ["all.*.processingTimeMs", "call.headline", "calls.*.headline"] as const;

const SYMBOL_COUNT = 20;
const CALL_COUNT = 10;

const services = {} as Record<Dialect, TestEmbedded>;
const symbols = buildUniverse(DEFAULT_SEED)
  .companies.slice(0, SYMBOL_COUNT)
  .map((c) => c.symbol);

/** Our API's answers, per dialect: fundamentals by kind, the call list, each call by id. */
const answers = {} as Record<
  Dialect,
  {
    fundamentals: Partial<Record<FundamentalsKind, unknown[]>>;
    calls: CallListItem[];
    call: Map<string, unknown>;
    summary: Map<string, unknown>;
    /** Calendars and the summary list: the same in both dialects, read through the same client. */
    other: Record<string, unknown>;
  }
>;

function pointAt(dialect: Dialect) {
  setUpstreamEnv({
    UPSTREAM_BASE_URL: services[dialect].url,
    UPSTREAM_WS_URL: services[dialect].wsUrl,
    UPSTREAM_API_KEY: services[dialect].key,
    // The embedded service builds an old call's transcript on first read.
    UPSTREAM_TIMEOUT_MS: "60000",
  });
}

async function json(response: Response, what: string): Promise<{ data: unknown }> {
  const body = (await response.json()) as { data: unknown };
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function collect(dialect: Dialect, callIds: readonly string[] | null) {
  pointAt(dialect);
  const fundamentals: Partial<Record<FundamentalsKind, unknown[]>> = {};
  for (const kind of FUNDAMENTALS_KINDS) {
    const response = await getFundamentalsRoute(
      new Request(`http://app.test/api/fundamentals/${kind}?symbols=${symbols.join(",")}`),
      { params: Promise.resolve({ kind }) },
    );
    fundamentals[kind] = (await json(response, kind)).data as unknown[];
  }
  const list = await json(
    await listCallsRoute(new Request(`http://app.test/api/calls?status=completed&pageSize=${CALL_COUNT}`)),
    "calls",
  );
  const calls = list.data as CallListItem[];
  const call = new Map<string, unknown>();
  const summary = new Map<string, unknown>();
  for (const id of callIds ?? calls.map((c) => c.callId)) {
    const params = { params: Promise.resolve({ callId: id }) };
    call.set(
      id,
      (await json(await getCallRoute(new Request(`http://app.test/api/calls/${id}`), params), id)).data,
    );
    const url = `http://app.test/api/calls/${id}/summary`;
    summary.set(id, (await json(await getCallSummaryRoute(new Request(url), params), `summary ${id}`)).data);
  }
  // The quarter before the service's "now" (EMBEDDED_NOW or today): always inside the calendars' windows.
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const nowMs = services[dialect].now();
  const from = `from=${day(nowMs - 90 * 86_400_000)}&to=${day(nowMs)}&pageSize=200`;
  const read = async (route: (r: Request) => Promise<Response>, url: string) =>
    (await json(await route(new Request(url)), url)).data;
  const other = {
    earnings: await read(earningsRoute, `http://app.test/api/calendar/earnings?${from}`),
    ma: await read(maRoute, `http://app.test/api/calendar/ma?${from}`),
    summaries: await read(listSummariesRoute, "http://app.test/api/summaries?pageSize=10"),
  };
  answers[dialect] = { fundamentals, calls, call, summary, other };
}

beforeAll(async () => {
  // One clock for both services: started one after the other, each from EMBEDDED_NOW, they would be seconds apart
  // and could disagree on which calls have ended.
  for (const dialect of DIALECTS) {
    services[dialect] = await startTestEmbedded(
      { EMBEDDED_WIRE: dialect, EMBEDDED_LIVE_CALLS: "0" },
      { clock: testClock },
    );
  }
  await collect("contract", null);
  await collect("documented", [...answers.contract.call.keys()]);
  // 224 s measured on two cores at a load of 20 (62 s contract, 162 s documented): 240 s timed out twice there.
}, 480_000);

afterAll(async () => {
  await Promise.all(DIALECTS.map((d) => services[d]?.close()));
  clearUpstreamEnv();
});

/** Every leaf of `value` as `path → value`, with array indices in the path. */
function leaves(value: unknown, path: string, out: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}.${i}`, out));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) leaves(v, `${path}.${k}`, out);
  } else out.set(path, value);
  return out;
}

function isDialectOnly(path: string): boolean {
  return DIALECT_ONLY.some((pattern) => {
    const re = new RegExp(`^${pattern.replace(/\./g, "\\.").replace(/\*/g, "\\d+")}(\\.|$)`);
    return re.test(path);
  });
}

/** Differences between the dialects' answers, apart from the listed dialect-only fields. */
function differences(root: string, contract: unknown, documented: unknown): string[] {
  const a = leaves(contract, root, new Map());
  const b = leaves(documented, root, new Map());
  const out: string[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (isDialectOnly(path)) continue;
    if (!Object.is(a.get(path), b.get(path))) {
      out.push(`${path}: ${JSON.stringify(a.get(path))} vs ${JSON.stringify(b.get(path))}`);
    }
  }
  return out;
}

describe("the two wire dialects read the same through our API", () => {
  it.each(FUNDAMENTALS_KINDS)("fundamentals %s: the same figures for 20 companies", (kind) => {
    const contract = answers.contract.fundamentals[kind]!;
    const documented = answers.documented.fundamentals[kind]!;
    expect(contract).toHaveLength(SYMBOL_COUNT);
    expect(differences(kind, contract, documented)).toEqual([]);
    // Not vacuous: every company's answer carries values beyond its symbol.
    const filled = [...leaves(contract, kind, new Map()).values()].filter(
      (v) => v !== null && v !== undefined,
    );
    expect(filled.length).toBeGreaterThan(SYMBOL_COUNT * 3);
  });

  it("the documented dialect's records really are the other shapes (so the comparison tests the mappers)", async () => {
    const get = async (dialect: Dialect, path: string) => {
      const res = await fetch(`${services[dialect].url}${path}`, {
        headers: { authorization: "token demo" },
      });
      return (await res.json()) as { result: Record<string, unknown>[] };
    };
    const contract = await get("contract", `/api/v2.1/fundamentals/operationRatios?symbols=${symbols[0]}`);
    const documented = await get(
      "documented",
      `/api/v2.1/fundamentals/operationRatios?symbols=${symbols[0]}`,
    );
    const grouped = (contract.result[0]!.operationRatios as Record<string, unknown>[])[0]!;
    const flat = (documented.result[0]!.operationRatios as Record<string, unknown>[])[0]!;
    expect(Object.keys(grouped)).toContain("3M");
    expect(flat).toMatchObject({ id: { period: "3M" }, isCalculated: false });
    expect(flat).toHaveProperty("ebitdaMargin");
    expect(flat).not.toHaveProperty("EBITDAMargin");
  });

  it("the combined answer's latest statement arrives, with the documented line items", () => {
    for (const dialect of DIALECTS) {
      const all = answers[dialect].fundamentals.all as { financials: { balanceSheet: object } | null }[];
      expect(all.every((item) => item.financials !== null)).toBe(true);
      expect(Object.keys(all[0]!.financials!.balanceSheet).length).toBeGreaterThanOrEqual(40);
    }
  });

  it("the same 10 completed calls, field by field; only the documented ones carry a headline", () => {
    expect(answers.contract.calls).toHaveLength(CALL_COUNT);
    expect(differences("calls", answers.contract.calls, answers.documented.calls)).toEqual([]);
    for (const [id, contract] of answers.contract.call) {
      const documented = answers.documented.call.get(id) as {
        title: string;
        headline: string;
        period: string;
      };
      expect(differences("call", contract, documented)).toEqual([]);
      expect((contract as { segments: unknown[] }).segments.length).toBeGreaterThan(0);
      expect(documented.title).toMatch(/Earnings Conference Call$/);
      expect(documented.period).toMatch(/^(Q[1-4]|FY|H[12])$/);
      expect(documented.headline).toEqual(expect.any(String));
    }
  });

  it("summaries, the calendars and the summary list read the same", () => {
    for (const [id, contract] of answers.contract.summary) {
      expect(differences("summary", contract, answers.documented.summary.get(id))).toEqual([]);
    }
    for (const name of ["earnings", "ma", "summaries"]) {
      const contract = answers.contract.other[name] as unknown[];
      expect(contract.length, name).toBeGreaterThan(0);
      expect(differences(name, contract, answers.documented.other[name])).toEqual([]);
    }
  });

  it("a documented call's relative recording links resolve against the base URL", async () => {
    const id = answers.contract.calls[0]!.callId;
    pointAt("documented");
    const raw = await fetch(`${services.documented.url}/api/v1/transcripts/calls/${id}?audio=true`, {
      headers: { authorization: "token demo" },
    });
    const body = (await raw.json()) as {
      recording: { formats: { file_link: string }[] };
      recordings?: unknown;
    };
    expect(body.recordings).toBeUndefined();
    expect(body.recording.formats[0]!.file_link).not.toMatch(/^https?:/);
    const links = await fetchMediaLinks(getRuntime().upstream, id, undefined, services.documented.url);
    const hls = new URL(links!.hls!);
    expect(hls.origin).toBe(new URL(services.documented.url).origin);
    expect(hls.pathname).toBe(`/api/v1/transcripts/calls/${id}/hls`);
    expect(hls.searchParams.get("Signature")).toEqual(expect.any(String));
    // Without a base, a relative link cannot be followed and is not offered.
    expect((await fetchMediaLinks(getRuntime().upstream, id))?.hls).toBeNull();
  }, 60_000);

  it("the documented stream acknowledges a subscription with a JSON string, which the live bus reads as an ack", async () => {
    const frames = await new Promise<string[]>((resolve, reject) => {
      const ws = new WebSocket(`${services.documented.wsUrl}/api/v1/transcripts/stream?token=demo`);
      const seen: string[] = [];
      ws.on("open", () => ws.send(JSON.stringify({ action: "subscribe", ticker: "*" })));
      ws.on("message", (data: WebSocket.RawData) => {
        seen.push(data.toString());
        if (seen.length === 2) {
          ws.close();
          resolve(seen);
        }
      });
      ws.on("error", reject);
    });
    expect(frames[1]).toBe('"Subscribed to *"');
    expect(parseFrame(frames[1]!)).toEqual({ kind: "ack", action: "subscribed", ticker: "*" });
  });
});
