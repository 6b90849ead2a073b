import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseQuery } from "./parse-query";

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
