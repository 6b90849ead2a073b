import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Alert } from "@/lib/schemas/alerts";
import { DeliveryQueue } from "./delivery-queue";
import { WebhookSender, webhookPayload, type DeliveryAttempt } from "./webhook";
import { isNonPublicAddress, parseWebhookAllowlist, validateWebhookUrl } from "./webhook-target";

/**
 * Webhooks against hostile targets (issue 27, item 2): a receiver that trickles its answer, one that never answers,
 * many rules on one URL, many deliveries at once; and the addresses and ports a webhook may name.
 */

const alert = (id: string, over: Partial<Alert> = {}): Alert => ({
  id,
  ruleId: "7",
  kind: "keyword",
  rules: [{ ruleId: "7", kind: "keyword", label: "“tariff”", matched: ["Tariffs"], detail: null }],
  callId: "a".repeat(24),
  symbol: "NWSC",
  sequence: 12,
  startMs: 48_000,
  text: "Tariffs cost us two points of margin.",
  firedAt: "2026-11-24T12:00:00.000Z",
  read: false,
  ...over,
});

interface Target {
  port: number;
  url: string;
  /** Requests whose body arrived. */
  received: number;
  /** Connections open right now, and the most open at once. */
  open: () => number;
  peak: () => number;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

/** A receiver whose answer `respond` writes (or never writes). */
async function target(respond: (res: ServerResponse) => void): Promise<Target> {
  const sockets = new Set<Socket>();
  let peak = 0;
  const t: Target = { port: 0, url: "", received: 0, open: () => sockets.size, peak: () => peak };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      t.received += 1;
      respond(res);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on("close", () => sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  t.port = (server.address() as AddressInfo).port;
  t.url = `http://127.0.0.1:${t.port}/hook`;
  return t;
}

function sender(allow: string, over: Partial<ConstructorParameters<typeof WebhookSender>[0]> = {}) {
  const attempts: DeliveryAttempt[] = [];
  const s = new WebhookSender({
    allowlist: parseWebhookAllowlist(allow),
    log: { record: async (a) => void attempts.push(a) },
    retryDelaysMs: [],
    ...over,
  });
  return { s, attempts };
}

const waitFor = async (check: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
};

describe("webhook targets", () => {
  it("refuses the IPv6 forms that embed an IPv4 address, literal or after DNS", async () => {
    const none = parseWebhookAllowlist("");
    for (const address of [
      "::7f00:1",
      "::127.0.0.1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:0:7f00:1",
      "fec0::1",
      "2002:7f00:1::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "64:ff9b:1::7f00:1",
      "64:ff9b::7f00:1",
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
      await expect(validateWebhookUrl(`https://[${address}]/hook`, none), address).rejects.toMatchObject({
        status: 400,
      });
      await expect(
        validateWebhookUrl("https://hooks.example.com/x", none, async () => [address]),
        `DNS ${address}`,
      ).rejects.toMatchObject({ status: 400 });
    }
    expect(isNonPublicAddress("8.8.8.8")).toBe(false);
    expect(isNonPublicAddress("2606:4700:4700::1111")).toBe(false);
  });

  it("takes ports 443 and 8443 only, unless the allowlist names the host", async () => {
    const none = parseWebhookAllowlist("");
    const resolve = async () => ["93.184.216.34"];
    for (const url of ["https://hooks.example.com/x", "https://hooks.example.com:8443/x"])
      await expect(validateWebhookUrl(url, none, resolve), url).resolves.toMatchObject({
        allowlisted: false,
      });
    for (const url of ["https://hooks.example.com:22/x", "https://hooks.example.com:6379/x"])
      await expect(validateWebhookUrl(url, none, resolve), url).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining("port 443 or 8443"),
      });
    const allowed = parseWebhookAllowlist("hooks.internal");
    await expect(validateWebhookUrl("http://hooks.internal:9000/x", allowed)).resolves.toMatchObject({
      allowlisted: true,
    });
  });

  it("escapes Slack's formatting characters in the transcript text", () => {
    const text = webhookPayload(
      alert("1", { text: "Hi <!channel> & <https://evil.example|click here>" }),
      null,
    ).text;
    expect(text).toContain("Hi &lt;!channel&gt; &amp; &lt;https://evil.example|click here&gt;");
    expect(text).not.toContain("<!channel>");
  });
});

describe("webhook deliveries", () => {
  it("cuts an attempt at its overall deadline, however steadily the target trickles", async () => {
    const trickle = await target((res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 100);
      res.on("close", () => clearInterval(timer));
    });
    const { s, attempts } = sender(`127.0.0.1:${trickle.port}`, { deadlineMs: 600 });
    const started = Date.now();
    expect(await s.deliver(trickle.url, webhookPayload(alert("1"), null))).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(attempts).toMatchObject([{ ok: false, error: expect.stringContaining("within 600 ms") }]);
    expect(await waitFor(() => trickle.open() === 0, 2_000), "the socket is closed").toBe(true);
  });

  it("keeps at most 10 deliveries in flight per host, the rest queued", async () => {
    const slow = await target((res) => setTimeout(() => res.end(), 150));
    const { s, attempts } = sender(`127.0.0.1:${slow.port}`);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        s.deliver(slow.url, webhookPayload(alert(String(i)), null), {
          user: `user-${i}`,
          ruleIds: [String(i)],
          about: `sentence-${i}`,
        }),
      ),
    );
    expect(results.every(Boolean)).toBe(true);
    expect(slow.received).toBe(30);
    expect(slow.peak()).toBeLessThanOrEqual(10);
    expect(attempts).toHaveLength(30);
  });

  it("keeps at most 10 deliveries in flight per user across hosts", async () => {
    const hosts = await Promise.all([0, 1, 2].map(() => target((res) => setTimeout(() => res.end(), 150))));
    const { s } = sender(hosts.map((h) => `127.0.0.1:${h.port}`).join(","));
    let open = 0;
    let peak = 0;
    const sample = setInterval(() => {
      open = hosts.reduce((n, h) => n + h.open(), 0);
      peak = Math.max(peak, open);
    }, 5);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        s.deliver(hosts[i % 3]!.url, webhookPayload(alert(String(i)), null), {
          user: "ann",
          ruleIds: [String(i)],
          about: `sentence-${i}`,
        }),
      ),
    );
    clearInterval(sample);
    expect(hosts.reduce((n, h) => n + h.received, 0)).toBe(30);
    expect(peak).toBeLessThanOrEqual(10);
  });

  it("sends one POST per URL per sentence, however many rules and users name it", async () => {
    const ok = await target((res) => setTimeout(() => res.end(), 50));
    const { s, attempts } = sender(`127.0.0.1:${ok.port}`);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        s.deliver(ok.url, webhookPayload(alert(String(i)), null), {
          user: i < 50 ? "ann" : "bob",
          ruleIds: [String(i)],
          about: "call-a:12",
        }),
      ),
    );
    expect(ok.received).toBe(1);
    // Every alert's delivery log still says it was delivered.
    expect(new Set(attempts.filter((a) => a.ok).map((a) => a.alertId)).size).toBe(100);
  });

  it("aborts a rule's deliveries when the rule is deleted: none left open", async () => {
    const silent = await target(() => {});
    const { s } = sender(`127.0.0.1:${silent.port}`, { deadlineMs: 30_000 });
    const pending = Array.from({ length: 12 }, (_, i) =>
      s.deliver(silent.url, webhookPayload(alert(String(i)), null), {
        user: "ann",
        ruleIds: ["7"],
        about: `sentence-${i}`,
      }),
    );
    const other = s.deliver(silent.url, webhookPayload(alert("99"), null), {
      user: "bob",
      ruleIds: ["8"],
      about: "sentence-99",
    });
    // Ten in flight (the host's cap), two of ann's and bob's one queued.
    expect(await waitFor(() => silent.received === 10, 3_000)).toBe(true);
    expect(s.cancelRules(["7"])).toBe(12);
    expect(await Promise.all(pending)).toEqual(Array(12).fill(false));
    // Bob's delivery takes a freed slot: his is the only socket open.
    expect(await waitFor(() => silent.open() === 1 && silent.received === 11, 5_000)).toBe(true);
    await s.stop();
    expect(await other).toBe(false);
    expect(await waitFor(() => silent.open() === 0, 5_000)).toBe(true);
  });

  it("drops what does not fit the bounded queue, and says so in the delivery log", async () => {
    const silent = await target(() => {});
    const queue = new DeliveryQueue({ maxQueued: 5, perUser: 1, perHost: 1 });
    const { s, attempts } = sender(`127.0.0.1:${silent.port}`, { queue });
    const all = Array.from({ length: 10 }, (_, i) =>
      s.deliver(silent.url, webhookPayload(alert(String(i)), null), {
        user: "ann",
        ruleIds: ["7"],
        about: `sentence-${i}`,
      }),
    );
    expect(await waitFor(() => attempts.length === 4, 2_000)).toBe(true);
    expect(attempts.every((a) => a.error?.includes("queue full"))).toBe(true);
    expect(queue.queued).toBe(5);
    expect(queue.inFlight).toBe(1);
    await s.stop();
    expect(await Promise.all(all)).toEqual(Array(10).fill(false));
  });
});
