import { afterEach, describe, expect, it } from "vitest";
import { captureLogs } from "@/test/security/helpers";
import { getLogger } from "../log";
import { toErrorResponse, AppError } from "./errors";
import { withRequestContext } from "./request-context";

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

const route = withRequestContext(async (request: Request, label: string) => {
  getLogger().info({ label }, "before the await");
  await new Promise((r) => setTimeout(r, 5));
  // What a failing upstream call would produce: toErrorResponse logs 5xx causes.
  return toErrorResponse(new AppError(502, "upstream_error", `failed for ${new URL(request.url).pathname}`));
});

const lines = (captured: string[]) => captured.map((l) => JSON.parse(l) as Record<string, unknown>);

describe("withRequestContext", () => {
  it("stamps the proxy's request id on every line the handler causes, across awaits and concurrent requests", async () => {
    const logs = captureLogs();
    restore = logs.restore;
    const [a, b] = await Promise.all([
      route(new Request("http://app/api/a", { headers: { "x-request-id": "req-aaaa-1111" } }), "a"),
      route(new Request("http://app/api/b", { headers: { "x-request-id": "req-bbbb-2222" } }), "b"),
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
    await route(new Request("http://app/api/c"), "c");
    await route(new Request("http://app/api/d", { headers: { "x-request-id": "bad id <forged>" } }), "d");
    expect(lines(logs.lines).every((l) => !("reqId" in l))).toBe(true);
  });
});
