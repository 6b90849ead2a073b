/* eslint-disable @typescript-eslint/no-explicit-any -- untyped JSON bodies are what these tests inspect, field by field */
/** Test helpers for the live service: a recording WebSocket client and small REST shortcuts. */
import WebSocket from "ws";

export type Frame =
  | { kind: "text"; text: string; at: number }
  | { kind: "json"; value: Record<string, unknown>; text: string; at: number };

export interface RecordingClient {
  ws: WebSocket;
  frames: Frame[];
  send(value: unknown): void;
  /** Resolves with the first frame (from `fromIndex` on) that satisfies `predicate`. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs?: number, fromIndex?: number): Promise<Frame>;
  closed: Promise<{ code: number }>;
  close(): void;
}

function parse(text: string): Frame {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { kind: "json", value: value as Record<string, unknown>, text, at: Date.now() };
    }
  } catch {
    // plain text frames (acks, pong) are expected
  }
  return { kind: "text", text, at: Date.now() };
}

export async function connect(
  wsUrl: string,
  key: string,
  options: WebSocket.ClientOptions = {},
): Promise<RecordingClient> {
  const ws = new WebSocket(`${wsUrl}/api/v1/transcripts/stream?token=${encodeURIComponent(key)}`, options);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  ws.on("message", (data) => {
    frames.push(parse(data.toString()));
    for (const w of [...waiters]) w();
  });
  const closed = new Promise<{ code: number }>((resolve) => ws.on("close", (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
  });
  return {
    ws,
    frames,
    closed,
    send: (value) => ws.send(typeof value === "string" ? value : JSON.stringify(value)),
    close: () => ws.close(),
    waitFor(predicate, timeoutMs = 15_000, fromIndex = 0) {
      return new Promise<Frame>((resolve, reject) => {
        const check = () => {
          const found = frames.slice(fromIndex).find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching frame within ${timeoutMs} ms; got ${frames.map((f) => f.text.slice(0, 80)).join(" | ")}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Status code of a refused handshake. */
export function handshakeStatus(wsUrl: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsUrl}/api/v1/transcripts/stream?token=${encodeURIComponent(key)}`);
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("error", (error) => reject(error));
  });
}

export const isJson = (frame: Frame): frame is Extract<Frame, { kind: "json" }> => frame.kind === "json";
export const isSentenceOf = (callId: string) => (f: Frame) =>
  isJson(f) && f.value.call_id === callId && "sequence" in f.value;

export async function getJson(
  url: string,
  key = "demo",
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, { headers: { authorization: `token ${key}` } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // raw bodies stay text
  }
  return { status: response.status, body, headers: response.headers };
}

export async function startCall(baseUrl: string, symbol: string, durationSeconds = 20): Promise<string> {
  const response = await fetch(`${baseUrl}/__embedded/calls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ symbol, durationSeconds }),
  });
  if (!response.ok) throw new Error(`start call answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { call_id: string }).call_id;
}

/** Distinct tickers of the universe, from the calendar. */
export async function someTickers(baseUrl: string, count: number): Promise<string[]> {
  const { body } = await getJson(`${baseUrl}/api/v2.1/calendar/earnings?pagesize=1000`);
  const tickers = [...new Set((body.earnings as { ticker: string }[]).map((r) => r.ticker))];
  return tickers.slice(0, count);
}

export async function until<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
  stepMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
