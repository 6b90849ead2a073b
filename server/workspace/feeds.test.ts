import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { Database } from "../db/database";
import { earningsIcs, eventUid, FeedTokenRepository } from "./feeds";
import { testDatabase } from "./test-db";

let database: Database;
let repo: FeedTokenRepository;

beforeAll(async () => {
  database = await testDatabase();
  repo = new FeedTokenRepository(database.db);
}, 60_000);
afterAll(() => database?.close());

function row(over: Partial<EarningsRow>): EarningsRow {
  return {
    id: "e1",
    date: "2026-12-03",
    time: "16:30:00",
    startsAt: "2026-12-03T21:30:00.000Z",
    isDateConfirmed: true,
    ticker: "NWSC",
    exchange: "NASDAQ",
    isin: null,
    cusip: null,
    name: "Northwind Semiconductor",
    currency: "USD",
    period: "Q3",
    periodYear: 2026,
    epsType: null,
    eps: null,
    epsEst: 1.1,
    epsPrior: null,
    epsSurprise: null,
    epsSurprisePercent: null,
    revenueType: null,
    revenue: null,
    revenueEst: 2.5e9,
    revenuePrior: null,
    revenueSurprise: null,
    revenueSurprisePercent: null,
    importance: 3,
    notes: null,
    updatedAt: null,
    ...over,
  };
}

describe("FeedTokenRepository", () => {
  it("issues a secret that names its user, and a new one revokes the old", async () => {
    const first = await repo.issue("ann");
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await repo.userFor(first)).toBe("ann");
    const second = await repo.issue("ann");
    expect(await repo.userFor(first)).toBeNull();
    expect(await repo.userFor(second)).toBe("ann");
    await repo.revoke("ann");
    expect(await repo.userFor(second)).toBeNull();
    expect(await repo.userFor("../../etc/passwd")).toBeNull();
  });
});

describe("earningsIcs", () => {
  it("lists timed reports in UTC and undated times as all-day events, with stable ids", () => {
    const ics = earningsIcs(
      [
        row({}),
        row({ id: "e2", ticker: "ACME", name: "Acme", time: null, startsAt: null, isDateConfirmed: false }),
      ],
      {
        name: "Callroom watchlists",
        baseUrl: "https://callroom.example",
        now: new Date("2026-11-24T12:00:00Z"),
      },
    );
    const unfolded = ics.replace(/\r\n[ \t]/g, "");
    expect(unfolded).toContain("BEGIN:VCALENDAR");
    expect(unfolded).toContain("UID:earnings-e1@callroom");
    expect(unfolded).toContain("DTSTART:20261203T213000Z");
    expect(unfolded).toContain("DTEND:20261203T223000Z");
    expect(unfolded).toContain("SUMMARY:NWSC Q3 2026 earnings");
    expect(unfolded).toContain("EPS estimate 1.10\\, revenue estimate $2.50B.");
    expect(unfolded).toContain("UID:earnings-e2@callroom");
    expect(unfolded).toContain("DTSTART;VALUE=DATE:20261203");
    expect(unfolded).toContain("SUMMARY:ACME Q3 2026 earnings (unconfirmed)");
    expect(unfolded).toContain("URL;VALUE=URI:https://callroom.example/companies/ACME");
  });

  it("checks each record id against a safe pattern before it becomes an event UID", () => {
    const hostile = "x\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:Wire the money@evil";
    const ics = earningsIcs([row({ id: hostile }), row({ id: "a".repeat(500) })], {
      name: "Callroom watchlists",
      baseUrl: "https://callroom.example",
      now: new Date("2026-11-24T12:00:00Z"),
    });
    const uids = ics
      .replace(/\r\n[ \t]/g, "")
      .split("\r\n")
      .filter((line) => line.startsWith("UID:"));
    expect(uids).toHaveLength(2);
    for (const uid of uids) expect(uid).toMatch(/^UID:earnings-[A-Za-z0-9._-]{1,100}@callroom$/);
    // Stable: the same record gives the same UID next time.
    expect(uids[0]).toBe(`UID:${eventUid(hostile)}`);
    expect(ics).not.toContain("Wire the money");
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
  });
});

describe("earningsIcs with the reports' calls", () => {
  it("starts a report's event at its call, for as long as it lasted, and links it to the call room", () => {
    const calls = new Map([
      [
        "e1",
        {
          callId: "c".repeat(24),
          status: "completed" as const,
          startTime: "2026-12-03T22:00:00.000Z",
          endTime: "2026-12-03T22:55:00.000Z",
          durationSeconds: 3300,
        },
      ],
    ]);
    const ics = earningsIcs([row({}), row({ id: "e2", ticker: "ACME", name: "Acme" })], {
      name: "Callroom",
      baseUrl: "https://callroom.example",
      now: new Date("2026-12-04T12:00:00Z"),
      calls,
    });
    const unfolded = ics.replace(/\r\n[ \t]/g, "");
    // The release was 21:30; the event is the call, 22:00 to 22:55.
    expect(unfolded).toContain("DTSTART:20261203T220000Z");
    expect(unfolded).toContain("DTEND:20261203T225500Z");
    expect(unfolded).toContain("SUMMARY:NWSC Q3 2026 earnings call");
    expect(unfolded).toContain(`URL;VALUE=URI:https://callroom.example/calls/${"c".repeat(24)}`);
    // A report without a known call keeps its release time and the company link.
    expect(unfolded).toContain("DTSTART:20261203T213000Z");
    expect(unfolded).toContain("URL;VALUE=URI:https://callroom.example/companies/ACME");
  });
});
