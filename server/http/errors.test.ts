import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, toErrorResponse } from "./errors";
import { parseQuery } from "./parse-query";

describe("toErrorResponse", () => {
  it("answers an AppError thrown by another bundled copy of this module with its own status, not a 500", async () => {
    // What a second copy's instance looks like from here: another class, carrying the shared brand.
    const brand: unique symbol = Symbol.for("callroom.AppError") as never;
    class OtherCopyAppError extends Error {
      readonly [brand] = true;
      readonly status = 503;
      readonly code = "recording_not_ready";
      readonly retryAfterSeconds = 5;
      readonly expose = undefined;
    }
    const error = new OtherCopyAppError("The MP3 recording is being prepared.");
    expect(error instanceof AppError).toBe(true);
    expect(new Error("plain") instanceof AppError).toBe(false);
    const res = toErrorResponse(error);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({
      error: { code: "recording_not_ready", message: "The MP3 recording is being prepared." },
    });
  });

  it("renders an AppError as {error: {code, message}} with Retry-After", async () => {
    const response = toErrorResponse(new AppError(503, "rate_limited", "Busy.", { retryAfterSeconds: 4 }));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("4");
    expect(await response.json()).toEqual({ error: { code: "rate_limited", message: "Busy." } });
  });

  it("exposes details on 4xx only", async () => {
    const client = toErrorResponse(new AppError(400, "invalid_parameter", "bad", { expose: { field: "x" } }));
    expect(await client.json()).toEqual({
      error: { code: "invalid_parameter", message: "bad", details: { field: "x" } },
    });
    const server = toErrorResponse(
      new AppError(502, "upstream_error", "failed", { expose: { upstream: "secret" } }),
    );
    expect(await server.text()).not.toContain("secret");
  });

  it("turns unknown errors into a generic 500", async () => {
    const response = toErrorResponse(new Error("db password is hunter2"));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: "internal_error", message: "Something went wrong on our side." },
    });
    expect(text).not.toContain("hunter2");
  });
});

describe("parseQuery", () => {
  const schema = z.object({ limit: z.coerce.number().int().max(5), name: z.string() });

  it("names the parameter when zod's message does not", () => {
    expect(() => parseQuery(new URLSearchParams("name=a&limit=9"), schema)).toThrow(/^limit: /);
    expect(() => parseQuery(new URLSearchParams("limit=1"), schema)).toThrow("name is required");
  });

  it("drops blank values and keeps the last of repeated ones", () => {
    expect(parseQuery(new URLSearchParams("name=a&name=b&limit=2"), schema)).toEqual({ name: "b", limit: 2 });
    expect(() => parseQuery(new URLSearchParams("name=%20&limit=1"), schema)).toThrow("name is required");
  });
});
