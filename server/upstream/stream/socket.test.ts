import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import type { UpstreamFrame } from "./frames";
import { UpstreamSocket, type StreamState } from "./socket";

const TOKEN = "sekret-key-123";

interface Fake {
  url: string;
  server: Server;
  wss: WebSocketServer;
  received: string[];
  handshakes: number;
  sockets: WebSocket[];
  close(): Promise<void>;
}

/** A stand-in stream endpoint: `refuse(n)` answers the n-th handshake with an HTTP status instead of upgrading. */
async function fakeUpstream(
  options: { refuse?: (n: number) => number | null; silent?: boolean } = {},
): Promise<Fake> {
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true, autoPong: !options.silent });
  const fake: Fake = {
    url: "",
    server,
    wss,
    received: [],
    handshakes: 0,
    sockets: [],
    close: async () => {
      for (const s of fake.sockets) s.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  server.on("upgrade", (req, socket, head) => {
    fake.handshakes += 1;
    const status = options.refuse?.(fake.handshakes) ?? null;
    if (status !== null) {
      socket.end(
        `HTTP/1.1 ${status} Refused\r\nRetry-After: 0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    const token = new URL(req.url ?? "/", "http://x").searchParams.get("token");
    if (token !== TOKEN) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      fake.sockets.push(ws);
      if (!options.silent) ws.send(JSON.stringify({ message: "Connected to the server", uid: "u1" }));
      ws.on("message", (data) => {
        const text = data.toString();
        fake.received.push(text);
        if (options.silent) return;
        const msg = JSON.parse(text) as { action: string; ticker?: string };
        if (msg.action === "subscribe") ws.send(`Subscribed to ${msg.ticker}`);
        if (msg.action === "ping") ws.send("pong");
        if (msg.action === "list") ws.send(JSON.stringify({ action: "list", calls: [] }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  fake.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function capture() {
  const lines: string[] = [];
  const at = (level: string) => (obj: object, msg: string) =>
    lines.push(`${level} ${msg} ${JSON.stringify(obj)}`);
  return { lines, log: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

const until = async (test: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe("UpstreamSocket", () => {
  it("connects, subscribes to *, asks for the live list, and hands parsed frames over", async () => {
    const fake = await fakeUpstream();
    const { log, lines } = capture();
    const frames: UpstreamFrame[] = [];
    const states: StreamState[] = [];
    const socket = new UpstreamSocket({
      wsBaseUrl: fake.url,
      apiKey: TOKEN,
      log,
      onFrame: (f) => frames.push(f),
      onStateChange: (s) => states.push(s),
    });
    cleanup.push(
      () => fake.close(),
      () => socket.stop(),
    );
    socket.start();
    await until(() => frames.some((f) => f.kind === "list"));
    expect(fake.received.slice(0, 2).map((t) => JSON.parse(t) as unknown)).toEqual([
      { action: "subscribe", ticker: "*" },
      { action: "list" },
    ]);
    expect(frames.map((f) => f.kind)).toEqual(["connected", "ack", "list"]);
    expect(states).toEqual(["connecting", "open"]);
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("reconnects after a drop, reports the reconnect, and resubscribes", async () => {
    const fake = await fakeUpstream();
    const { log, lines } = capture();
    const opens: boolean[] = [];
    const socket = new UpstreamSocket({
      wsBaseUrl: fake.url,
      apiKey: TOKEN,
      log,
      onFrame: () => {},
      onOpen: ({ reconnect }) => opens.push(reconnect),
      backoff: { baseMs: 20, capMs: 50 },
    });
    cleanup.push(
      () => fake.close(),
      () => socket.stop(),
    );
    socket.start();
    await until(() => opens.length === 1);
    const subscribes = () => fake.received.filter((t) => t.includes('"subscribe"')).length;
    for (let i = 0; i < 3; i += 1) {
      // Drop only once this connection's subscription has arrived, so each connection proves it resubscribed.
      await until(() => subscribes() === i + 1);
      fake.sockets.at(-1)!.terminate();
      await until(() => opens.length === i + 2);
    }
    expect(opens).toEqual([false, true, true, true]);
    // The last subscription may still be in flight when the client reports the open.
    await until(() => subscribes() === 4);
    expect(socket.openCount).toBe(4);
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("logs a 429 handshake as the key's connection being held elsewhere, and keeps retrying", async () => {
    const fake = await fakeUpstream({ refuse: (n) => (n <= 3 ? 429 : null) });
    const { log, lines } = capture();
    const socket = new UpstreamSocket({
      wsBaseUrl: fake.url,
      apiKey: TOKEN,
      log,
      onFrame: () => {},
      backoff: { baseMs: 20, capMs: 50 },
    });
    cleanup.push(
      () => fake.close(),
      () => socket.stop(),
    );
    socket.start();
    await until(() => socket.state === "open");
    expect(fake.handshakes).toBe(4);
    // Match the status field, not the digits: the fake's random port can contain "429" too.
    const refusals = lines.filter((l) => l.includes('"status":429'));
    expect(refusals).toHaveLength(3);
    expect(refusals[0]).toMatch(/single live connection is held elsewhere/);
    expect(lines.join("\n")).not.toContain(TOKEN);
    expect(lines.join("\n")).not.toContain("token=");
  });

  it("terminates a connection that goes silent and connects again", async () => {
    const fake = await fakeUpstream({ silent: true });
    const { log, lines } = capture();
    const socket = new UpstreamSocket({
      wsBaseUrl: fake.url,
      apiKey: TOKEN,
      log,
      onFrame: () => {},
      backoff: { baseMs: 10, capMs: 20 },
      pingIntervalMs: 50,
      livenessTimeoutMs: 300,
    });
    cleanup.push(
      () => fake.close(),
      () => socket.stop(),
    );
    const startedAt = Date.now();
    socket.start();
    await until(() => fake.handshakes >= 2, 3_000);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(300);
    expect(lines.some((l) => l.includes("silent"))).toBe(true);
    // It did ping (the application ping), and the silent server never answered.
    expect(fake.received.some((t) => t.includes('"ping"'))).toBe(true);
  });

  it("stops for good", async () => {
    const fake = await fakeUpstream();
    const { log } = capture();
    const socket = new UpstreamSocket({ wsBaseUrl: fake.url, apiKey: TOKEN, log, onFrame: () => {} });
    cleanup.push(() => fake.close());
    socket.start();
    await until(() => socket.state === "open");
    socket.stop();
    expect(socket.state).toBe("closed");
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.handshakes).toBe(1);
  });
});
