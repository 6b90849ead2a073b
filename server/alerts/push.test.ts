import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../config";
import type { Alert } from "@/lib/schemas/alerts";
import {
  checkPushEndpoint,
  ensureVapidKeys,
  PushSender,
  pushMessage,
  vapidKeysFrom,
  type VapidKeys,
  type VapidKeyStore,
} from "./push";
import { createPushWorkerPool } from "./push-worker-pool";
import type { DeliveryAttempt } from "./webhook";
import { parseWebhookAllowlist } from "./webhook-target";

/**
 * A local push endpoint standing in for a browser's push service and the browser itself: it holds the
 * subscription's private key and decrypts what it receives (RFC 8291, aes128gcm, RFC 8188 framing) with node:crypto
 * alone, and checks the VAPID signature (RFC 8292), so the test proves a browser could read the message.
 */

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

function decryptAes128gcm(body: Buffer, uaPrivate: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const uaPublic = uaPrivate.getPublicKey();
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString("utf8");
}

function verifyVapid(headers: IncomingHttpHeaders, audience: string, publicKey: string) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(headers.authorization ?? "");
  expect(m, "a VAPID Authorization header").not.toBeNull();
  const [header, claims, signature] = m![1]!.split(".") as [string, string, string];
  expect(m![2]).toBe(publicKey);
  const raw = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: raw.subarray(1, 33).toString("base64url"),
      y: raw.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verify(
    "sha256",
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  expect(ok).toBe(true);
  const parsed = JSON.parse(Buffer.from(claims, "base64url").toString()) as {
    aud: string;
    sub: string;
    exp: number;
  };
  expect(parsed.aud).toBe(audience);
  expect(parsed.sub).toBe("mailto:alerts@callroom.test");
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function pushEndpoint(status = 201) {
  const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = status;
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, received };
}

function memoryStore(): VapidKeyStore & { saves: number } {
  let stored: VapidKeys | null = null;
  return {
    saves: 0,
    async load() {
      return stored;
    },
    async saveIfAbsent(keys) {
      this.saves += 1;
      stored ??= keys;
      return stored;
    },
  };
}

describe("Web Push", () => {
  it("generates VAPID keys once and reuses the stored ones", async () => {
    const store = memoryStore();
    const first = await ensureVapidKeys(store);
    const second = await ensureVapidKeys(store);
    expect(second).toEqual(first);
    expect(store.saves).toBe(1);
    expect(Buffer.from(first.publicKey, "base64url")).toHaveLength(65);
  });

  it("delivers a payload the subscriber can decrypt, signed with our VAPID key", async () => {
    const endpoint = await pushEndpoint(201);
    const ua = createECDH("prime256v1");
    ua.generateKeys();
    const auth = randomBytes(16);
    const keys = await ensureVapidKeys(memoryStore());
    const attempts: DeliveryAttempt[] = [];
    const sender = new PushSender({
      keys,
      subject: "mailto:alerts@callroom.test",
      allowlist: parseWebhookAllowlist(`127.0.0.1:${endpoint.port}`),
      log: { record: async (a) => void attempts.push(a) },
      onGone: async () => {},
    });
    const subscription = {
      endpoint: `http://127.0.0.1:${endpoint.port}/push/abc`,
      keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
    };
    const ok = await sender.send({ id: "s1", subscription }, pushMessage(alert, "/calls/x?t=48000"));
    expect(ok).toBe(true);
    expect(endpoint.received).toHaveLength(1);
    const [{ headers, body }] = endpoint.received as [{ headers: IncomingHttpHeaders; body: Buffer }];
    expect(headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(headers.ttl)).toBeGreaterThan(0);
    verifyVapid(headers, `http://127.0.0.1:${endpoint.port}`, keys.publicKey);
    expect(JSON.parse(decryptAes128gcm(body, ua, auth))).toEqual({
      title: "NWSC: “tariff”",
      body: alert.text,
      url: "/calls/x?t=48000",
      alertId: "41",
    });
    expect(attempts).toMatchObject([{ channel: "push", ok: true, status: 201 }]);
  });

  it("forgets a subscription the push service says is gone", async () => {
    const endpoint = await pushEndpoint(410);
    const ua = createECDH("prime256v1");
    ua.generateKeys();
    const gone: string[] = [];
    const sender = new PushSender({
      keys: await ensureVapidKeys(memoryStore()),
      subject: "mailto:alerts@callroom.test",
      allowlist: parseWebhookAllowlist(`127.0.0.1:${endpoint.port}`),
      log: { record: async () => {} },
      onGone: async (id) => void gone.push(id),
    });
    const subscription = {
      endpoint: `http://127.0.0.1:${endpoint.port}/push/abc`,
      keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
    };
    expect(await sender.send({ id: "s9", subscription }, pushMessage(alert, null))).toBe(false);
    expect(gone).toEqual(["s9"]);
  });

  it("refuses a subscription endpoint on loopback that the allowlist does not name", async () => {
    const endpoint = await pushEndpoint(201);
    const ua = createECDH("prime256v1");
    ua.generateKeys();
    const attempts: DeliveryAttempt[] = [];
    const sender = new PushSender({
      keys: await ensureVapidKeys(memoryStore()),
      subject: "mailto:alerts@callroom.test",
      allowlist: parseWebhookAllowlist(""),
      log: { record: async (a) => void attempts.push(a) },
      onGone: async () => {},
    });
    const subscription = {
      endpoint: `https://127.0.0.1:${endpoint.port}/push/abc`,
      keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
    };
    expect(await sender.send({ id: "s1", subscription }, pushMessage(alert, null))).toBe(false);
    expect(endpoint.received).toHaveLength(0);
    expect(attempts[0]!.error).toContain("push service");
  });
});

describe("push deliveries under load", () => {
  it("encrypts and signs in a worker thread, and the subscriber can still read it", async () => {
    const pool = createPushWorkerPool();
    try {
      const ua = createECDH("prime256v1");
      ua.generateKeys();
      const auth = randomBytes(16);
      const keys = await ensureVapidKeys(memoryStore());
      const result = await pool.encrypt({
        subscription: {
          endpoint: "https://fcm.googleapis.com/fcm/send/x",
          keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
        },
        payload: JSON.stringify({ title: "t" }),
        options: { TTL: 60, urgency: "high", vapidDetails: { subject: "mailto:a@callroom.test", ...keys } },
      });
      expect(result.threadId).toBeGreaterThan(0);
      expect(JSON.parse(decryptAes128gcm(Buffer.from(result.body!), ua, auth))).toEqual({ title: "t" });
    } finally {
      await pool.close();
    }
  });

  it("sends one user's messages at most 10 at a time, and stops cleanly with some still queued", async () => {
    let open = 0;
    let peak = 0;
    const server = createServer((req, res) => {
      open += 1;
      peak = Math.max(peak, open);
      req.resume();
      req.on("end", () =>
        setTimeout(() => {
          open -= 1;
          res.statusCode = 201;
          res.end();
        }, 40),
      );
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const ua = createECDH("prime256v1");
    ua.generateKeys();
    const sender = new PushSender({
      keys: await ensureVapidKeys(memoryStore()),
      subject: "mailto:alerts@callroom.test",
      allowlist: parseWebhookAllowlist(`127.0.0.1:${port}`),
      log: { record: async () => {} },
      onGone: async () => {},
    });
    const subscriptions = Array.from({ length: 20 }, (_, i) => ({
      id: String(i),
      subscription: {
        endpoint: `http://127.0.0.1:${port}/push/${i}`,
        keys: {
          p256dh: ua.getPublicKey().toString("base64url"),
          auth: randomBytes(16).toString("base64url"),
        },
      },
    }));
    const sent = await Promise.all(
      Array.from({ length: 3 }, (_, a) =>
        subscriptions.map((s) =>
          sender.send(s, pushMessage({ ...alert, id: String(a) }, null), { user: "ann", ruleIds: ["7"] }),
        ),
      ).flat(),
    );
    expect(sent.every(Boolean)).toBe(true);
    expect(peak).toBeLessThanOrEqual(10);
    const late = subscriptions.map((s) =>
      sender.send(s, pushMessage(alert, null), { user: "ann", ruleIds: ["7"] }),
    );
    await sender.stop();
    expect((await Promise.all(late)).some((ok) => !ok)).toBe(true);
  });
});

describe("push endpoints", () => {
  const none = parseWebhookAllowlist("");
  it("accepts the browsers' push services only", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:APA91",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://web.push.apple.com/QGq3",
      "https://wns2-par02p.notify.windows.com/w/?token=BQYA",
    ])
      expect(checkPushEndpoint(endpoint, none).allowlisted, endpoint).toBe(false);
    for (const endpoint of [
      "https://push.example.com/1",
      "https://fcm.googleapis.com.attacker.example/x",
      "https://attacker-fcm.googleapis.com.example/x",
      "http://fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com:8443/fcm/send/x",
      "https://127.0.0.1/push",
      "https://[::1]/push",
    ])
      expect(() => checkPushEndpoint(endpoint, none), endpoint).toThrow(/push service/);
  });

  it("accepts a host CALLROOM_PUSH_ALLOWLIST names, even plain http on loopback", () => {
    expect(
      checkPushEndpoint("http://127.0.0.1:9999/push", parseWebhookAllowlist("127.0.0.1:9999")),
    ).toMatchObject({
      allowlisted: true,
    });
  });

  it("takes the VAPID key pair from the environment, both or neither", async () => {
    const vapidKeysFromEnv = (env: Record<string, string>) => vapidKeysFrom(readConfig(env).workspace.vapid);
    const keys = await ensureVapidKeys(memoryStore());
    expect(
      vapidKeysFromEnv({
        CALLROOM_VAPID_PUBLIC_KEY: keys.publicKey,
        CALLROOM_VAPID_PRIVATE_KEY: keys.privateKey,
      }),
    ).toEqual(keys);
    expect(vapidKeysFromEnv({})).toBeNull();
    expect(() => vapidKeysFromEnv({ CALLROOM_VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(
      /both or neither/,
    );
    expect(() =>
      vapidKeysFromEnv({ CALLROOM_VAPID_PUBLIC_KEY: keys.publicKey, CALLROOM_VAPID_PRIVATE_KEY: "short" }),
    ).toThrow(/private key/);
  });
});
