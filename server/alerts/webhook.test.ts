import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Alert } from "@/lib/schemas/alerts";
import { guardedPost } from "./guarded-post";
import {
  retryDelay,
  WEBHOOK_RETRY_DELAYS_MS,
  WebhookSender,
  webhookPayload,
  type DeliveryAttempt,
} from "./webhook";
import { isNonPublicAddress, parseWebhookAllowlist, validateWebhookUrl } from "./webhook-target";

const alert: Alert = {
  id: "41",
  ruleId: "7",
  kind: "keyword",
  rules: [{ ruleId: "7", kind: "keyword", label: "“tariff”", matched: ["tariffs"], detail: null }],
  callId: "a".repeat(24),
  symbol: "NWSC",
  sequence: 12,
  startMs: 48_000,
  text: "Tariffs cost us two points of margin.",
  firedAt: "2026-11-24T12:00:00.000Z",
  read: false,
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A receiver that answers each POST with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[]) {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      bodies.push(JSON.parse(body));
      res.statusCode = statuses[Math.min(bodies.length - 1, statuses.length - 1)]!;
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, bodies };
}

function sender(allow: string, resolve?: (host: string) => Promise<string[]>) {
  const attempts: DeliveryAttempt[] = [];
  const s = new WebhookSender({
    allowlist: parseWebhookAllowlist(allow),
    log: { record: async (a) => void attempts.push(a) },
    resolve,
    retryDelaysMs: [10, 20, 30],
  });
  return { s, attempts };
}

describe("webhook targets", () => {
  it("refuses loopback, private, link-local and mapped addresses, and accepts public ones", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
      "100.64.0.1",
    ])
      expect(isNonPublicAddress(a), a).toBe(true);
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])
      expect(isNonPublicAddress(a), a).toBe(false);
  });

  it("answers a clear 400 for http, file, loopback and credentials", async () => {
    const none = parseWebhookAllowlist(undefined);
    const resolve = async () => ["93.184.216.34"];
    for (const [url, text] of [
      ["http://127.0.0.1/hook", "https"],
      ["https://127.0.0.1/hook", "private or loopback"],
      ["file:///etc/passwd", "https"],
      ["https://user:pw@hooks.example.com/x", "credentials"],
      ["https://localhost/x", "local"],
      ["https://[::1]/x", "private or loopback"],
      ["not a url", "absolute"],
    ] as const)
      await expect(validateWebhookUrl(url, none, resolve), url).rejects.toMatchObject({
        status: 400,
        code: "invalid_parameter",
        message: expect.stringContaining(text),
      });
  });

  it("refuses a name that resolves to a private address, after DNS", async () => {
    const none = parseWebhookAllowlist("");
    await expect(
      validateWebhookUrl("https://hooks.example.com/x", none, async () => ["10.0.0.5"]),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("resolves to a private"),
    });
    await expect(
      validateWebhookUrl("https://hooks.example.com/x", none, async () => ["93.184.216.34"]),
    ).resolves.toMatchObject({
      host: "hooks.example.com",
      allowlisted: false,
    });
  });

  it("lets the allowlist name a private host, by host or by host and port", async () => {
    expect(
      (await validateWebhookUrl("http://127.0.0.1:9000/x", parseWebhookAllowlist("127.0.0.1"))).allowlisted,
    ).toBe(true);
    const byPort = parseWebhookAllowlist(" hooks.internal:8443 , 10.0.0.9:80");
    expect((await validateWebhookUrl("https://hooks.internal:8443/x", byPort)).allowlisted).toBe(true);
    await expect(validateWebhookUrl("https://hooks.internal:9443/x", byPort)).rejects.toMatchObject({
      status: 400,
    });
    expect((await validateWebhookUrl("http://10.0.0.9/x", byPort)).allowlisted).toBe(true);
  });
});

describe("WebhookSender", () => {
  it("posts Slack-compatible JSON, retries a 5xx with backoff and logs every attempt", async () => {
    const r = await receiver([503, 500, 200]);
    const { s, attempts } = sender(`127.0.0.1:${r.port}`);
    const ok = await s.deliver(
      `http://127.0.0.1:${r.port}/hook?token=secret`,
      webhookPayload(alert, "https://callroom.example/calls/x?t=48"),
    );
    expect(ok).toBe(true);
    expect(r.bodies).toHaveLength(3);
    expect(r.bodies[0]).toMatchObject({
      text: "*NWSC* · “tariff”: “Tariffs cost us two points of margin.” <https://callroom.example/calls/x?t=48|Open in Callroom>",
      alert: { id: "41", sequence: 12 },
    });
    expect(retryDelay(WEBHOOK_RETRY_DELAYS_MS, 1, null)).toBe(1_000);
    expect(retryDelay(WEBHOOK_RETRY_DELAYS_MS, 2, null)).toBe(5_000);
    expect(retryDelay(WEBHOOK_RETRY_DELAYS_MS, 1, 20_000)).toBe(20_000);
    expect(retryDelay(WEBHOOK_RETRY_DELAYS_MS, 1, 600_000)).toBe(60_000);
    expect(attempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([
      [1, 503, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    // The log keeps the origin only: the path and query of a webhook URL are its secret.
    expect(attempts.every((a) => a.target === `http://127.0.0.1:${r.port}`)).toBe(true);
  });

  it("does not retry a 4xx answer", async () => {
    const r = await receiver([404]);
    const { s, attempts } = sender(`127.0.0.1:${r.port}`);
    expect(await s.deliver(`http://127.0.0.1:${r.port}/hook`, webhookPayload(alert, null))).toBe(false);
    expect(r.bodies).toHaveLength(1);
    expect(attempts).toHaveLength(1);
  });

  it("gives up after the last retry", async () => {
    const r = await receiver([500]);
    const { s, attempts } = sender(`127.0.0.1:${r.port}`);
    expect(await s.deliver(`http://127.0.0.1:${r.port}/hook`, webhookPayload(alert, null))).toBe(false);
    expect(r.bodies).toHaveLength(4);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
  });

  it("never connects to a loopback receiver the allowlist does not name", async () => {
    const r = await receiver([200]);
    const { s, attempts } = sender("");
    expect(await s.deliver(`http://127.0.0.1:${r.port}/hook`, webhookPayload(alert, null))).toBe(false);
    expect(r.bodies).toHaveLength(0);
    expect(attempts).toMatchObject([{ ok: false, status: null, error: expect.stringContaining("https") }]);
  });

  it("refuses, at connection time, a name that now resolves inwards, without retrying", async () => {
    const r = await receiver([200]);
    // A public-looking name whose DNS answer changed to loopback after the rule was saved.
    const result = await guardedPost(new URL(`http://hooks.example.com:${r.port}/hook`), "{}", {
      allowlisted: false,
      resolve: async () => ["127.0.0.1"],
      headers: {},
    });
    expect(r.bodies).toHaveLength(0);
    expect(result).toMatchObject({
      status: null,
      refused: true,
      error: expect.stringContaining("non-public"),
    });
  });
});
