import { describe, expect, it } from "vitest";
import { AppError, toErrorResponse } from "./errors";

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
    const response = toErrorResponse(
      new AppError("upstream_rate_limited", "Busy.", { retryAfterSeconds: 4 }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("4");
    expect(await response.json()).toEqual({ error: { code: "upstream_rate_limited", message: "Busy." } });
  });

  it("takes each code's status from the one catalog: a code means one thing", () => {
    expect(new AppError("rate_limited", "slow down").status).toBe(429);
    expect(new AppError("upstream_rate_limited", "busy").status).toBe(503);
    expect(new AppError("not_found", "none").status).toBe(404);
  });

  it("exposes details on 4xx only", async () => {
    const client = toErrorResponse(new AppError("invalid_parameter", "bad", { expose: { field: "x" } }));
    expect(await client.json()).toEqual({
      error: { code: "invalid_parameter", message: "bad", details: { field: "x" } },
    });
    const server = toErrorResponse(
      new AppError("upstream_error", "failed", { expose: { upstream: "secret" } }),
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
