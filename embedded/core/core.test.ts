import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { createAuthorizer, presentedKey } from "./auth";
import { FaultState, faultsBodySchema } from "./faults";
import { isLoopback } from "./handler";
import { parseTarget } from "./query";
import { RateLimiter } from "./rate-limit";
import { acceptsXml, toXml } from "./render";
import { Router } from "./router";
import type { RouteDef } from "./types";

const route = (method: RouteDef["method"], pattern: string): RouteDef => ({
  method,
  pattern,
  product: "transcripts",
  handle: () => ({ body: pattern }),
});

describe("Router", () => {
  const router = new Router([
    route("GET", "/api/v1/transcripts/calls"),
    route("GET", "/api/v1/transcripts/calls/:callId"),
    route("GET", "/api/v1/transcripts/calls/:callId/hls"),
    route("GET", "/api/v1/transcripts/calls/search"),
  ]);

  it("matches literals and captures :params", () => {
    expect(router.match("GET", "/api/v1/transcripts/calls")?.route.pattern).toBe("/api/v1/transcripts/calls");
    expect(router.match("GET", "/api/v1/transcripts/calls/abc123/hls")?.params).toEqual({ callId: "abc123" });
  });

  it("prefers a literal segment over a parameter whatever the order", () => {
    expect(router.match("GET", "/api/v1/transcripts/calls/search")?.route.pattern).toBe(
      "/api/v1/transcripts/calls/search",
    );
  });

  it("misses on unknown paths, extra segments and other methods", () => {
    expect(router.match("GET", "/api/v1/transcripts")).toBeNull();
    expect(router.match("GET", "/api/v1/transcripts/calls/a/b/c")).toBeNull();
    expect(router.match("POST", "/api/v1/transcripts/calls")).toBeNull();
  });

  it("refuses duplicate routes", () => {
    expect(() => new Router([route("GET", "/a"), route("GET", "/a")])).toThrow(/duplicate/);
  });
});

describe("parseTarget", () => {
  it("decodes percent-encoded brackets in parameter names", () => {
    const { path, query } = parseTarget(
      "/api/v2.1/calendar/earnings?parameters%5Btickers%5D=AAA%2CBBB&page=1",
    );
    expect(path).toBe("/api/v2.1/calendar/earnings");
    expect(query.get("parameters[tickers]")).toBe("AAA,BBB");
    expect(query.get("page")).toBe("1");
  });

  it("reports an undecodable path as null", () => {
    expect(parseTarget("/api/%E0%A4%A").path).toBeNull();
  });
});

describe("auth", () => {
  const authorize = createAuthorizer(
    new Map([
      ["demo", new Set(["calendars", "fundamentals", "transcripts"] as const)],
      ["cal", new Set(["calendars"] as const)],
    ]),
  );

  it("accepts known keys whose plan holds the product and forbids the others", () => {
    expect(authorize("demo", "transcripts")).toBe("ok");
    expect(authorize("cal", "calendars")).toBe("ok");
    expect(authorize("cal", "transcripts")).toBe("forbidden");
  });

  it("refuses missing, unknown and space-padded keys", () => {
    expect(authorize(null, "calendars")).toBe("unauthorized");
    expect(authorize("nope", "calendars")).toBe("unauthorized");
    expect(authorize(" demo", "calendars")).toBe("unauthorized");
    expect(authorize("demo ", "calendars")).toBe("unauthorized");
  });

  it("takes the header over the query and does not trim", () => {
    const query = new URLSearchParams("token=fromquery");
    expect(presentedKey({ authorization: "token fromheader" }, query)).toBe("fromheader");
    expect(presentedKey({ authorization: "Token  padded" }, query)).toBe(" padded");
    expect(presentedKey({ authorization: "Bearer x" }, query)).toBe("");
    expect(presentedKey({}, query)).toBe("fromquery");
    expect(presentedKey({}, new URLSearchParams())).toBeNull();
  });
});

describe("RateLimiter", () => {
  it("allows N per sliding second per key, then answers a whole-second Retry-After", () => {
    const limiter = new RateLimiter(2);
    expect(limiter.take("k", 1000).allowed).toBe(true);
    expect(limiter.take("k", 1500).allowed).toBe(true);
    expect(limiter.take("k", 1600)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take("other", 1600).allowed).toBe(true);
    // The first stamp leaves the window at 2000; a boundary burst cannot double the rate.
    expect(limiter.take("k", 2001).allowed).toBe(true);
    expect(limiter.take("k", 2002).allowed).toBe(false);
  });

  it("is off at 0", () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) expect(limiter.take("k", 1).allowed).toBe(true);
  });
});

describe("FaultState", () => {
  it("applies defaults, replaces, clears and expires", () => {
    const faults = new FaultState();
    faults.set(faultsBodySchema.parse({ restErrorRate: 1, durationSeconds: 2 }), 0);
    expect(faults.active(1999)).toMatchObject({
      restErrorRate: 1,
      restStatus: 500,
      restLatencyMs: 0,
      wsSilent: false,
    });
    expect(faults.active(2000)).toBeNull();
    faults.set(faultsBodySchema.parse({ wsSilent: true, durationSeconds: 10 }), 0);
    faults.set(faultsBodySchema.parse({ restStatus: 503, durationSeconds: 10 }), 0);
    expect(faults.active(1)).toMatchObject({ wsSilent: false, restStatus: 503 });
    faults.clear();
    expect(faults.active(1)).toBeNull();
  });

  it("fails requests at the error rate, the same requests in every run (the one PRNG, not Math.random)", () => {
    const failures = (sets: number[]) => {
      const faults = new FaultState();
      return sets.map((rate) => {
        const active = faults.set(faultsBodySchema.parse({ restErrorRate: rate, durationSeconds: 10 }), 0);
        return Array.from({ length: 1000 }, () => faults.failsRequest(active));
      });
    };
    const [never, always, half, again] = failures([0, 1, 0.5, 0.5]);
    expect(never!.filter(Boolean)).toHaveLength(0);
    expect(always!.filter(Boolean)).toHaveLength(1000);
    expect(half!.filter(Boolean).length).toBeGreaterThan(440);
    expect(half!.filter(Boolean).length).toBeLessThan(560);
    // Another set draws another stream; a fresh service injecting the same sets in the same order, the same one.
    expect(again).not.toEqual(half);
    expect(failures([0, 1, 0.5, 0.5])).toEqual([never, always, half, again]);
  });

  it("validates the body", () => {
    expect(faultsBodySchema.safeParse({ durationSeconds: 1 }).success).toBe(true);
    expect(faultsBodySchema.safeParse({ durationSeconds: 3600, restLatencyMs: 60000 }).success).toBe(true);
    for (const bad of [
      {},
      { durationSeconds: 0 },
      { durationSeconds: 3601 },
      { durationSeconds: 5, restErrorRate: 1.1 },
      { durationSeconds: 5, restStatus: 501 },
      { durationSeconds: 5, restLatencyMs: 60001 },
      { durationSeconds: 5, wsSilent: "yes" },
    ]) {
      expect(faultsBodySchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe("render", () => {
  it("negotiates XML only when accept prefers it", () => {
    expect(acceptsXml(undefined)).toBe(false);
    expect(acceptsXml("application/json")).toBe(false);
    expect(acceptsXml("application/xml")).toBe(true);
    expect(acceptsXml("application/json, application/xml")).toBe(false);
    expect(acceptsXml("application/json;q=0.5, application/xml")).toBe(true);
    expect(acceptsXml("*/*")).toBe(false);
  });

  it("writes well-formed XML that reads back: arrays as <item>, null empty, bad names prefixed", () => {
    const xml = toXml(
      { earnings: [{ id: "1", eps: "" }], none: [], one: null, nested: { "3M": 4 } },
      "result",
    );
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?><result>')).toBe(true);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === "item" }).parse(
      xml,
    ) as unknown;
    expect(parsed).toMatchObject({
      result: { earnings: { item: [{ id: "1", eps: "" }] }, none: "", one: "", nested: { _3M: "4" } },
    });
  });
});

describe("isLoopback", () => {
  it("knows IPv4, IPv6 and mapped loopback", () => {
    expect(isLoopback("127.0.0.1")).toBe(true);
    expect(isLoopback("::1")).toBe(true);
    expect(isLoopback("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopback("10.0.0.1")).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });
});
