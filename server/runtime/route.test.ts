import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { captureLogs } from "@/test/security/helpers";
import { readConfig } from "../config";
import { AppError } from "../errors";
import { getLogger } from "../log";
import { createRuntime, installRuntime } from "./index";
import { route } from "./route";

let restore: (() => void) | null = null;
beforeAll(() => installRuntime(createRuntime(readConfig({}))));
afterAll(() => installRuntime(undefined));
afterEach(() => {
  restore?.();
  restore = null;
});

const failing = route({ query: z.object({ label: z.string() }) }, async ({ request, query }) => {
  getLogger().info({ label: query.label }, "before the await");
  await new Promise((r) => setTimeout(r, 5));
  // What a failing upstream call would produce: 5xx causes are logged.
  throw new AppError("upstream_error", `failed for ${new URL(request.url).pathname}`);
});

const lines = (captured: string[]) => captured.map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the route wrapper", () => {
  it("stamps the proxy's request id on every line the handler causes, across awaits and concurrent requests", async () => {
    const logs = captureLogs();
    restore = logs.restore;
    const [a, b] = await Promise.all([
      failing(new Request("http://app/api/a?label=a", { headers: { "x-request-id": "req-aaaa-1111" } })),
      failing(new Request("http://app/api/b?label=b", { headers: { "x-request-id": "req-bbbb-2222" } })),
    ]);
    expect([a.status, b.status]).toEqual([502, 502]);
    const parsed = lines(logs.lines);
    expect(parsed).toHaveLength(4);
    for (const line of parsed) {
      const forA = line.label === "a" || String(line.msg).includes("/api/a");
      expect(line.reqId).toBe(forA ? "req-aaaa-1111" : "req-bbbb-2222");
    }
  });

  it("adds no id when the request has none or one that does not look like ours", async () => {
    const logs = captureLogs();
    restore = logs.restore;
    await failing(new Request("http://app/api/c?label=c"));
    await failing(
      new Request("http://app/api/d?label=d", { headers: { "x-request-id": "bad id <forged>" } }),
    );
    expect(lines(logs.lines).every((l) => !("reqId" in l))).toBe(true);
  });

  it("validates params, query and body in order, and refuses a change from another site before reading its body", async () => {
    const handled: unknown[] = [];
    const post = route(
      {
        user: true,
        params: z.object({ id: z.string().regex(/^\d+$/, "id must be digits") }),
        query: z.object({ dry: z.enum(["yes", "no"]).default("no") }),
        body: z.object({ name: z.string().min(1, "name is required") }),
      },
      async (context) => {
        handled.push({
          user: context.user,
          params: context.params,
          query: context.query,
          body: context.body,
        });
        return new Response(null, { status: 201 });
      },
    );
    const send = (url: string, init: RequestInit & { id?: string } = {}) =>
      post(new Request(url, { method: "POST", ...init }), {
        params: Promise.resolve({ id: init.id ?? "7" }),
      });
    const json = { "content-type": "application/json" };
    const error = async (r: Response) => [
      r.status,
      ((await r.json()) as { error: { code: string } }).error.code,
    ];

    expect(await error(await send("http://app/x", { id: "x", headers: json, body: "{}" }))).toEqual([
      400,
      "invalid_parameter",
    ]);
    expect(await error(await send("http://app/x?dry=maybe", { headers: json, body: "{}" }))).toEqual([
      400,
      "invalid_parameter",
    ]);
    const foreign = { ...json, origin: "https://evil.example", host: "app" };
    expect(await error(await send("http://app/x", { headers: foreign, body: '{"name":"a"}' }))).toEqual([
      403,
      "cross_origin",
    ]);
    expect(await error(await send("http://app/x", { body: '{"name":"a"}' }))).toEqual([
      415,
      "unsupported_media_type",
    ]);
    expect(await error(await send("http://app/x", { headers: json, body: "{nope" }))).toEqual([
      400,
      "invalid_parameter",
    ]);
    expect(handled).toEqual([]);

    const ok = await send("http://app/x?dry=yes", { headers: json, body: '{"name":"a"}' });
    expect(ok.status).toBe(201);
    // Nothing is cached that the route did not declare cacheable.
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(handled).toEqual([
      { user: "local", params: { id: "7" }, query: { dry: "yes" }, body: { name: "a" } },
    ]);
  });

  it("answers 401 for a user-bound route when sign-in applies and the proxy named no user", async () => {
    const runtime = createRuntime(readConfig({ HOST: "0.0.0.0" }));
    installRuntime(runtime);
    try {
      const me = route({ user: true }, ({ user }) => Response.json({ user }));
      expect((await me(new Request("http://app/me"))).status).toBe(401);
      const named = await me(new Request("http://app/me", { headers: { "x-callroom-user": "alice" } }));
      expect(await named.json()).toEqual({ user: "alice" });
    } finally {
      installRuntime(createRuntime(readConfig({})));
    }
  });
});
