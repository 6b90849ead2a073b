import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createExposureGuard, type ExposureGuardDeps } from "./exposure-guard";

/** A request as the HTTP server hands it over: headers and a socket (fake: tests reach loopback only). */
function fakeRequest(remoteAddress: string | undefined, headers: Record<string, string> = {}) {
  const socket = { remoteAddress, end: vi.fn(), destroySoon: vi.fn() };
  return { req: { headers: { ...headers }, socket } as unknown as IncomingMessage, socket };
}
const listeningOn = (address: string) => ({
  address: vi.fn(() => ({ address, family: address.includes(":") ? "IPv6" : "IPv4", port: 3000 })),
});

const deps = (over: Partial<ExposureGuardDeps> = {}): ExposureGuardDeps => ({
  log: { warn: vi.fn() },
  trustProxyHops: () => 0,
  accessControlReady: () => false,
  ...over,
});

describe("exposure guard", () => {
  it("refuses a remote peer of a server listening on every interface when no one could sign in", () => {
    const guard = createExposureGuard(deps());
    const { req, socket } = fakeRequest("192.0.2.7");
    expect(guard.admit(req, listeningOn("::"))).toBe(false);
    const written = String(socket.end.mock.calls[0]?.[0]);
    expect(written).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(written).toContain("Connection: close");
    expect(JSON.parse(written.slice(written.indexOf("\r\n\r\n") + 4))).toMatchObject({
      error: { code: "loopback_only" },
    });
    expect(socket.destroySoon).toHaveBeenCalled();
  });

  it("admits the same peer once users and a secret exist, and this machine's clients always", () => {
    const open = createExposureGuard(deps({ accessControlReady: () => true }));
    expect(open.admit(fakeRequest("192.0.2.7").req, listeningOn("0.0.0.0"))).toBe(true);
    const closed = createExposureGuard(deps());
    const local = fakeRequest("::ffff:127.0.0.1");
    expect(closed.admit(local.req, listeningOn("::"))).toBe(true);
    expect(local.socket.end).not.toHaveBeenCalled();
  });

  it("asks the server for its address once, not per request", () => {
    const guard = createExposureGuard(deps());
    const server = listeningOn("::");
    for (let i = 0; i < 5; i++) guard.admit(fakeRequest("127.0.0.1").req, server);
    expect(server.address).toHaveBeenCalledTimes(1);
  });

  it("untrusted: the client's address is the socket's; client-sent forwarding headers are replaced", () => {
    const guard = createExposureGuard(deps({ accessControlReady: () => true }));
    const { req } = fakeRequest("192.0.2.7", {
      "x-forwarded-for": "127.0.0.1",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "bank.example",
      "x-forwarded-port": "443",
    });
    expect(guard.admit(req, listeningOn("::"))).toBe(true);
    expect(req.headers["x-forwarded-for"]).toBe("192.0.2.7");
    expect(req.headers["x-forwarded-proto"]).toBeUndefined();
    expect(req.headers["x-forwarded-host"]).toBeUndefined();
    expect(req.headers["x-forwarded-port"]).toBeUndefined();
  });

  it("with CALLROOM_TRUST_PROXY the headers stay as the proxy wrote them", () => {
    const guard = createExposureGuard(deps({ accessControlReady: () => true, trustProxyHops: () => 1 }));
    const { req } = fakeRequest("127.0.0.1", {
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-proto": "https",
    });
    expect(guard.admit(req, listeningOn("127.0.0.1"))).toBe(true);
    expect(req.headers["x-forwarded-for"]).toBe("203.0.113.9");
    expect(req.headers["x-forwarded-proto"]).toBe("https");
  });

  it("without accounts, a proxy on this machine relaying an outside client is refused, trusted or not", () => {
    for (const hops of [0, 1]) {
      const guard = createExposureGuard(deps({ trustProxyHops: () => hops }));
      const { req } = fakeRequest("127.0.0.1", { "x-forwarded-for": "203.0.113.9" });
      expect(guard.admit(req, listeningOn("127.0.0.1"))).toBe(false);
    }
  });

  describe("installed on the process's HTTP servers", () => {
    let server: Server | undefined;
    let uninstall: (() => void) | undefined;
    afterEach(async () => {
      uninstall?.();
      if (server) await new Promise((r) => server!.close(r));
    });

    const get = (port: number, headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/api/symbols", headers }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });

    it("decides before the server's own handler, whatever server it is (no launcher, no custom server)", async () => {
      const seen: (string | undefined)[] = [];
      server = createServer((req, res) => {
        seen.push(req.headers["x-forwarded-for"] as string | undefined);
        res.end("handler answered");
      });
      await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
      const port = (server.address() as AddressInfo).port;
      uninstall = createExposureGuard(deps()).install();

      const local = await get(port, {});
      expect(local).toEqual({ status: 200, body: "handler answered" });
      const relayed = await get(port, { "x-forwarded-for": "203.0.113.9" });
      expect(relayed.status).toBe(403);
      expect(JSON.parse(relayed.body)).toMatchObject({ error: { code: "loopback_only" } });
      // The handler still ran for the refused request (a diagnostics subscriber cannot cancel the event), but it
      // wrote into a closed socket: the client saw only the refusal.
      expect(seen).toEqual(["127.0.0.1", "203.0.113.9"]);

      uninstall();
      uninstall = undefined;
      expect(await get(port, { "x-forwarded-for": "203.0.113.9" })).toEqual({
        status: 200,
        body: "handler answered",
      });
    });
  });
});
