import { describe, expect, it } from "vitest";
import { alertSchema } from "@/lib/schemas/alerts";
import { parseAlertMessage } from "./alert-message";

const rule = { ruleId: "r1", kind: "keyword", label: "tariffs", matched: ["tariffs"], detail: null };
const alert = {
  id: "42",
  ruleId: "r1",
  kind: "keyword",
  rules: [rule],
  callId: "aaaaaaaaaaaaaaaaaaaaaaaa",
  symbol: "ACME",
  sequence: 7,
  startMs: 12_500,
  text: "Tariffs weighed on the quarter.",
  firedAt: "2026-11-27T14:00:00.000Z",
  read: false,
};

/** Alerts, valid and malformed, that both readers must judge alike. */
const CASES: unknown[] = [
  alert,
  { ...alert, extra: 1 },
  {
    ...alert,
    rules: [
      { ...rule, extra: true },
      { ...rule, ruleId: "r2", kind: "guidance", detail: "x" },
    ],
  },
  { ...alert, callId: null, sequence: null, startMs: null, kind: "results" },
  { ...alert, rules: [] },
  { ...alert, rules: [{ ...rule, kind: "nonsense" }] },
  { ...alert, rules: [{ ...rule, matched: [1] }] },
  { ...alert, rules: [{ ...rule, detail: undefined }] },
  { ...alert, rules: "r1" },
  { ...alert, kind: "nonsense" },
  { ...alert, sequence: 1.5 },
  { ...alert, sequence: "7" },
  { ...alert, startMs: Number.NaN },
  { ...alert, startMs: undefined },
  { ...alert, read: "false" },
  { ...alert, callId: 3 },
  { ...alert, firedAt: undefined },
  { ...alert, text: null },
  { ...alert, id: 42 },
  null,
  [alert],
  "alert",
];

describe("parseAlertMessage (browser, without zod)", () => {
  it.each(CASES)("judges %j as alertSchema does", (value) => {
    const text = JSON.stringify(value) ?? "";
    const zod = alertSchema.safeParse(JSON.parse(text));
    expect(parseAlertMessage(text)).toEqual(zod.success ? zod.data : null);
  });

  it("refuses text that is not JSON", () => {
    expect(parseAlertMessage("{")).toBeNull();
  });
});
