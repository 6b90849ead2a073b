import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { NextRequest } from "next/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { DELETE, GET as getSession, POST } from "@/app/api/session/route";
import { proxy } from "@/proxy";
import { hashPassword, parseHash, verifyPassword } from "@/server/auth/password";
import { safeNextPath, SESSION_COOKIE } from "@/server/auth/session";
import { parseUsersFile } from "@/server/auth/users";
import {
  appPaths,
  emptyUsersPath,
  FAST,
  sealSession,
  SECRET,
  setSecurityEnv,
  writeUsersFile,
} from "./helpers";

const CALL = "0123456789abcdef01234567";
const { pages, api } = appPaths(CALL, "AAPL");

const req = (path: string, init: { headers?: Record<string, string>; method?: string } = {}) =>
  new NextRequest(`http://localhost:3000${path}`, {
    method: init.method ?? "GET",
    headers: { "x-forwarded-for": "10.0.0.1", ...init.headers },
  });

const passes = (response: Response) => response.headers.get("x-middleware-next") === "1";

let usersFile: string;

function login(body: unknown, headers: Record<string, string> = {}) {
  return POST(
    new Request("http://localhost:3000/api/session", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.0.0.9", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

beforeEach(async () => {
  usersFile ??= await writeUsersFile({ alice: "correct horse battery", bob: "another password" });
  setSecurityEnv({
    CALLROOM_USERS_FILE: usersFile,
    CALLROOM_SESSION_SECRET: SECRET,
    CALLROOM_RATE_LIMIT: "0",
  });
});
afterAll(() => setSecurityEnv({}));

describe("password hashes", () => {
  it("are scrypt$N$r$p$salt$hash with a per-user salt, and verify only the right password", async () => {
    const a = await hashPassword("pw-123456", FAST);
    const b = await hashPassword("pw-123456", FAST);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("pw-123456", a)).toBe(true);
    expect(await verifyPassword("pw-1234567", a)).toBe(false);
  });

  it("refuse parameters that would make one check expensive", () => {
    expect(parseHash("scrypt$16777216$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA")).toBeNull();
    expect(parseHash("scrypt$1000$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA")).toBeNull();
    expect(parseHash("bcrypt$x")).toBeNull();
  });

  it("written by `npm run user -- add` verify on the server; `remove` deletes the line", async () => {
    const file = emptyUsersPath();
    const env = { ...process.env, CALLROOM_USERS_FILE: file };
    const add = spawnSync(process.execPath, ["scripts/user.mjs", "add", "carol"], {
      input: "s3cret-passphrase\n",
      env,
      encoding: "utf8",
    });
    expect(add.status, add.stderr).toBe(0);
    const users = parseUsersFile(readFileSync(file, "utf8"));
    expect(await verifyPassword("s3cret-passphrase", users.get("carol")!.hash)).toBe(true);
    // A stable id of its own, kept when the password changes.
    const key = users.get("carol")!.key;
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    const again = spawnSync(process.execPath, ["scripts/user.mjs", "add", "carol"], {
      input: "another-passphrase\n",
      env,
      encoding: "utf8",
    });
    expect(again.status, again.stderr).toBe(0);
    expect(parseUsersFile(readFileSync(file, "utf8")).get("carol")!.key).toBe(key);
    const short = spawnSync(process.execPath, ["scripts/user.mjs", "add", "dave"], { input: "short\n", env });
    expect(short.status).toBe(1);
    const remove = spawnSync(process.execPath, ["scripts/user.mjs", "remove", "carol"], { env });
    expect(remove.status).toBe(0);
    expect(parseUsersFile(readFileSync(file, "utf8")).size).toBe(0);
    // Four starts of the script, each compiling server/config.ts (its reader) through tsx: ~0.5 s of CPU apiece.
  }, 60_000);
});

describe("proxy with a user in the file", () => {
  it("redirects every page to /login?next= and answers 401 on every API route without a session", async () => {
    for (const path of pages) {
      const response = await proxy(req(path));
      expect(response.status, path).toBe(307);
      const location = new URL(response.headers.get("location")!);
      expect(location.pathname).toBe("/login");
      if (path !== "/") expect(location.searchParams.get("next")).toBe(path);
    }
    for (const path of api) {
      const response = await proxy(req(path));
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({
        error: { code: "unauthenticated", message: expect.any(String) },
      });
    }
  });

  it("refuses forged, foreign-secret and removed-user cookies", async () => {
    const forged = await proxy(req("/api/calls", { headers: { cookie: `${SESSION_COOKIE}=Fe26.2**abc` } }));
    expect(forged.status).toBe(401);
    process.env.CALLROOM_SESSION_SECRET = "another-secret-another-secret-another-secret";
    setSecurityEnv({ CALLROOM_USERS_FILE: usersFile, CALLROOM_SESSION_SECRET: "x".repeat(40) });
    const foreign = await sealSession("alice");
    setSecurityEnv({ CALLROOM_USERS_FILE: usersFile, CALLROOM_SESSION_SECRET: SECRET });
    expect(
      (await proxy(req("/api/calls", { headers: { cookie: `${SESSION_COOKIE}=${foreign}` } }))).status,
    ).toBe(401);
    const ghost = await sealSession("mallory");
    expect(
      (await proxy(req("/api/calls", { headers: { cookie: `${SESSION_COOKIE}=${ghost}` } }))).status,
    ).toBe(401);
  });

  it("lets a signed-in user through everywhere, with the user and client set by the proxy only", async () => {
    const cookie = `${SESSION_COOKIE}=${await sealSession("alice")}`;
    for (const path of [...pages, ...api]) {
      const response = await proxy(
        req(path, { headers: { cookie, "x-callroom-user": "root", "x-callroom-client": "1.2.3.4" } }),
      );
      expect(passes(response), path).toBe(true);
      // alice's line has no id (written as before ids existed): her rows are keyed by her name.
      expect(response.headers.get("x-middleware-request-x-callroom-user")).toBe("user:alice");
      expect(response.headers.get("x-middleware-request-x-callroom-client")).toBe("10.0.0.1");
    }
  });

  it("keeps /api/health, /login and /api/session open", async () => {
    for (const path of ["/api/health", "/login", "/login?next=/calls", "/api/session"]) {
      expect(passes(await proxy(req(path))), path).toBe(true);
    }
  });

  it("opens /api/metrics to the CALLROOM_METRICS_TOKEN bearer only", async () => {
    const token = "metrics-token-0123456789";
    setSecurityEnv({
      CALLROOM_USERS_FILE: usersFile,
      CALLROOM_SESSION_SECRET: SECRET,
      CALLROOM_METRICS_TOKEN: token,
    });
    expect(passes(await proxy(req("/api/metrics", { headers: { authorization: `Bearer ${token}` } })))).toBe(
      true,
    );
    expect(
      (await proxy(req("/api/metrics", { headers: { authorization: "Bearer wrong-token-0123456" } }))).status,
    ).toBe(401);
    expect((await proxy(req("/api/calls", { headers: { authorization: `Bearer ${token}` } }))).status).toBe(
      401,
    );
  });

  it("fails closed (503) when users exist but the session secret is missing", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: usersFile });
    expect((await proxy(req("/api/calls"))).status).toBe(503);
    expect((await proxy(req("/calls"))).status).toBe(503);
  });
});

describe("proxy without users", () => {
  it("stays open on loopback", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" });
    for (const path of [...pages, ...api]) expect(passes(await proxy(req(path))), path).toBe(true);
  });

  it("closes everything when listening beyond loopback", async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: emptyUsersPath(),
      CALLROOM_SESSION_SECRET: SECRET,
      HOST: "0.0.0.0",
    });
    expect((await proxy(req("/api/calls"))).status).toBe(401);
    expect((await proxy(req("/live"))).status).toBe(307);
    expect(passes(await proxy(req("/api/health")))).toBe(true);
  });
});

describe("POST /api/session", () => {
  it("sets an HttpOnly, SameSite=Lax, Path=/ session cookie, Secure only over HTTPS", async () => {
    const plain = await login({ username: "alice", password: "correct horse battery" });
    expect(plain.status).toBe(200);
    const cookie = plain.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=Fe26\\.2\\*`));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Secure");
    const secure = await login(
      { username: "alice", password: "correct horse battery" },
      { "x-forwarded-proto": "https" },
    );
    expect(secure.headers.get("set-cookie")).toContain("; Secure");
    const value = /=([^;]+)/.exec(cookie)![1]!;
    expect(passes(await proxy(req("/calls", { headers: { cookie: `${SESSION_COOKIE}=${value}` } })))).toBe(
      true,
    );
    const me = await getSession(
      new Request("http://localhost/api/session", { headers: { cookie: `${SESSION_COOKIE}=${value}` } }),
    );
    expect(await me.json()).toEqual({ data: { authEnabled: true, username: "alice" } });
  });

  it("answers 401 to a wrong password or an unknown user, without saying which", async () => {
    const wrong = await login({ username: "bob", password: "not it" });
    const unknown = await login({ username: "nobody", password: "not it" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  it("rate-limits failed sign-ins per user (then even the right password waits) and per address", async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await login({ username: "bob", password: `guess ${i}` })).status).toBe(401);
    const blocked = await login({ username: "bob", password: "another password" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await blocked.json()).error.code).toBe("rate_limited");
    for (let i = 0; i < 20; i += 1) {
      await login({ username: `user${i}`, password: "x" }, { "x-forwarded-for": "10.9.9.9" });
    }
    const byAddress = await login(
      { username: "alice", password: "correct horse battery" },
      { "x-forwarded-for": "10.9.9.9" },
    );
    expect(byAddress.status).toBe(429);
    expect((await login({ username: "alice", password: "correct horse battery" })).status).toBe(200);
  });

  it("counts an attempt before checking the password: 120 concurrent wrong guesses get 5 verdicts, the rest 429", async () => {
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) => login({ username: "carol", password: `guess ${i}` })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(115);
  });

  it("accepts the HTML form: 303 to a same-origin `next`, or back to /login with the reason", async () => {
    const form = (body: string) =>
      POST(
        new Request("http://localhost:3000/api/session", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: "http://localhost:3000",
            host: "localhost:3000",
          },
          body,
        }),
      );
    const ok = await form("username=alice&password=correct+horse+battery&next=%2Fcalls%3Fpage%3D2");
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/calls?page=2");
    expect(ok.headers.get("set-cookie")).toContain("HttpOnly");
    const evil = await form("username=alice&password=correct+horse+battery&next=%2F%2Fevil.example%2Fx");
    expect(evil.headers.get("location")).toBe("/");
    const bad = await form("username=alice&password=nope&next=%2Flive");
    expect(bad.headers.get("location")).toBe("/login?error=invalid_credentials&next=%2Flive");
  });

  it("refuses cross-site sign-in and sign-out (Origin of another site)", async () => {
    const response = await login(
      { username: "alice", password: "correct horse battery" },
      { origin: "https://evil.example", host: "localhost:3000" },
    );
    expect(response.status).toBe(403);
    const out = await DELETE(
      new Request("http://localhost:3000/api/session", {
        method: "DELETE",
        headers: { origin: "https://evil.example" },
      }),
    );
    expect(out.status).toBe(403);
  });

  it("DELETE expires the cookie", async () => {
    const response = await DELETE(new Request("http://localhost:3000/api/session", { method: "DELETE" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toMatch(/^callroom_session=; .*Max-Age=0/);
  });
});

describe("safeNextPath", () => {
  it("keeps same-origin relative paths only", () => {
    expect(safeNextPath("/calls?x=1#t")).toBe("/calls?x=1#t");
    for (const bad of [
      "//evil.com",
      "/\\evil.com",
      "https://evil.com",
      "javascript:alert(1)",
      "/%0d%0aSet-Cookie:x",
      "calls",
      "/\tevil",
      "/login",
      "/api/calls",
      null,
    ]) {
      const out = safeNextPath(bad);
      expect(out === "/" || (out.startsWith("/") && !out.startsWith("//")), String(bad)).toBe(true);
      if (bad !== "/%0d%0aSet-Cookie:x") expect(out, String(bad)).toBe("/");
    }
  });
});
