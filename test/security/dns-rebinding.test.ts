import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { emptyUsersPath, SECRET, setSecurityEnv, writeUsersFile } from "./helpers";

/**
 * DNS rebinding (issue 27, item 5): on an open instance (no users), a page on an attacker's domain whose name is
 * rebound to 127.0.0.1 talks to our loopback port as if same-origin. Its requests still carry the attacker's name in
 * `Host` (and `Origin`): those are refused, before any handler runs, while this machine's own names keep working.
 */

const req = (host: string, init: { origin?: string; method?: string; path?: string } = {}) =>
  new NextRequest(`http://${host}${init.path ?? "/api/watchlists"}`, {
    method: init.method ?? "GET",
    headers: { host, ...(init.origin ? { origin: init.origin } : {}) },
  });
const passes = (response: Response) => response.headers.get("x-middleware-next") === "1";

afterAll(() => setSecurityEnv({}));

describe("an open instance answers only under this machine's names", () => {
  it("refuses a Host naming another domain with 421, whatever the path", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" });
    for (const path of ["/api/watchlists", "/api/alert-rules", "/", "/calls", "/api/stream?tickers=*"]) {
      const response = await proxy(
        req("attacker.example:3000", { path, method: path === "/api/alert-rules" ? "POST" : "GET" }),
      );
      expect(passes(response), path).toBe(false);
      expect(response.status, path).toBe(421);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("misdirected_request");
    }
  });

  it("refuses an Origin naming another domain with 403, even under a loopback Host", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" });
    for (const origin of ["http://attacker.example:3000", "null"]) {
      const response = await proxy(
        req("localhost:3000", { origin, method: "POST", path: "/api/alert-rules" }),
      );
      expect(response.status, origin).toBe(403);
    }
  });

  it("keeps localhost, 127.0.0.1, [::1] and CALLROOM_PUBLIC_URL's host working", async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: emptyUsersPath(),
      CALLROOM_RATE_LIMIT: "0",
      CALLROOM_PUBLIC_URL: "https://callroom.example.com",
    });
    for (const host of [
      "localhost:3000",
      "127.0.0.1:3000",
      "[::1]:3000",
      "localhost",
      "callroom.example.com",
    ])
      expect(passes(await proxy(req(host, { origin: `http://${host}` }))), host).toBe(true);
    expect(passes(await proxy(req("callroom.example.com.attacker.example")))).toBe(false);
  });

  it("with users the session decides instead (a rebinding page has no cookie for our name)", async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: await writeUsersFile({ alice: "correct horse battery" }),
      CALLROOM_SESSION_SECRET: SECRET,
      CALLROOM_RATE_LIMIT: "0",
    });
    const response = await proxy(req("callroom.internal:3000"));
    expect(response.status).toBe(401);
  });

  describe("on the socket, before the server's handler (custom server, next start, the stream door)", () => {
    let server: Server | undefined;
    let uninstall: (() => void) | undefined;
    afterEach(async () => {
      uninstall?.();
      if (server) await new Promise((r) => server!.close(r));
    });

    const get = (port: number, headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const r = request({ host: "127.0.0.1", port, path: "/api/watchlists", headers }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        r.on("error", reject);
        r.end();
      });

    it("answers 421 to a foreign Host and lets localhost:PORT and 127.0.0.1:PORT through", async () => {
      const runtime = setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath() });
      server = createServer((_req, res) => res.end("handler answered"));
      await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
      const port = (server.address() as AddressInfo).port;
      // The runtime's own guard, as the server installs it at start.
      uninstall = runtime.exposure.install();
      const foreign = await get(port, { host: `attacker.example:${port}` });
      expect(foreign.status).toBe(421);
      expect(foreign.body).not.toContain("handler answered");
      expect((await get(port, { host: `localhost:${port}` })).body).toBe("handler answered");
      expect((await get(port, { host: `127.0.0.1:${port}` })).body).toBe("handler answered");
      expect((await get(port, { host: `localhost:${port}`, origin: "http://attacker.example" })).status).toBe(
        403,
      );
    });
  });
});
