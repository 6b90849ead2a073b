import { describe, expect, it } from "vitest";
import { ackFrame, documentedName, toDocumentedBody } from "./documented";

const BASE = "http://127.0.0.1:4010";
const company = { primarySymbol: "NWSC", cik: "0001447347" };

describe("documentedName", () => {
  it("drops the seed's upper-case acronyms and takes the reference's own spellings", () => {
    expect(documentedName("EBITDAMargin")).toBe("ebitdaMargin");
    expect(documentedName("FCFNetIncomeRatio")).toBe("fcfNetIncomeRatio");
    expect(documentedName("ROA")).toBe("roa");
    expect(documentedName("PERatio")).toBe("peRatio");
    expect(documentedName("grossMargin")).toBe("grossMargin");
    expect(documentedName("fixAssetTurnover")).toBe("fixAssetsTuronver");
    expect(documentedName("dilutedConstEpsGrowth")).toBe("dilutedContEpsGrowth");
    expect(documentedName("dilutedEPS")).toBe("dilutedEps");
  });
});

describe("toDocumentedBody", () => {
  it("operation ratios: period groups become flat records keyed by id, newest group first", () => {
    const body = {
      result: [
        {
          company,
          operationRatios: [
            {
              "3M": {
                period: "3M",
                fiscalYearEnd: "12",
                reportType: "A",
                asOf: "2026-09-30",
                EBITDAMargin: 0.3,
              },
              "9M": {
                period: "9M",
                fiscalYearEnd: "12",
                reportType: "A",
                asOf: "2026-09-30",
                EBITDAMargin: 0.31,
              },
            },
            {
              "3M": {
                period: "3M",
                fiscalYearEnd: "12",
                reportType: "A",
                asOf: "2026-06-30",
                EBITDAMargin: 0.29,
              },
            },
          ],
        },
      ],
    };
    const out = toDocumentedBody("/api/v2.1/fundamentals/operationRatios", body, {
      baseUrl: BASE,
    }) as typeof body;
    expect(out.result[0]!.operationRatios).toEqual([
      {
        id: { companyId: "0C01447347", asOf: "2026-09-30", period: "3M", reportType: "A", aorRestate: "AOR" },
        fiscalYearEnd: 12,
        isCalculated: false,
        ebitdaMargin: 0.3,
      },
      {
        id: { companyId: "0C01447347", asOf: "2026-09-30", period: "9M", reportType: "A", aorRestate: "AOR" },
        fiscalYearEnd: 12,
        isCalculated: false,
        ebitdaMargin: 0.31,
      },
      {
        id: { companyId: "0C01447347", asOf: "2026-06-30", period: "3M", reportType: "A", aorRestate: "AOR" },
        fiscalYearEnd: 12,
        isCalculated: false,
        ebitdaMargin: 0.29,
      },
    ]);
  });

  it("share class: currencyId, isPrimaryShare, isDepositaryReceipt and an ISO ipoDate", () => {
    const body = {
      result: [
        {
          company,
          shareClass: { currency: "USD", ipoDate: "1045008000", isPrimary: true, isDepositaryRecipt: false },
        },
      ],
    };
    const out = toDocumentedBody("/api/v2.1/fundamentals/shareClass", body, { baseUrl: BASE }) as {
      result: { shareClass: unknown }[];
    };
    expect(out.result[0]!.shareClass).toEqual({
      currencyId: "USD",
      ipoDate: "2003-02-12",
      isPrimaryShare: true,
      isDepositaryReceipt: false,
    });
  });

  it("a call: headline title, formal title in description, one relative recording, ms segment times", () => {
    const call = {
      call_id: "65a1b2c3d4e5f60718293a4b",
      call_title: "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call",
      name: "Northwind Semiconductor Inc.",
      period: "Q3",
      year: 2026,
      duration: 720,
      transcripts: [
        { type: "LIVE", segments: [{ segment_id: 0, start_time: "00:00:01", start_ms: 1200, end_ms: 4100 }] },
      ],
      recordings: [
        {
          recording_id: "r1",
          formats: [
            { file_link: `${BASE}/api/v1/transcripts/calls/65a1b2c3d4e5f60718293a4b/hls?Signature=x` },
          ],
        },
      ],
    };
    const out = toDocumentedBody("/api/v1/transcripts/calls/65a1b2c3d4e5f60718293a4b", call, {
      baseUrl: BASE,
    }) as Record<string, unknown>;
    expect(out).toMatchObject({
      description: call.call_title,
      call_title: "Northwind Semiconductor Inc. walks through Q3 2026 results and outlook",
      duration: 12,
      recording: {
        recording_id: "r1",
        formats: [{ file_link: "api/v1/transcripts/calls/65a1b2c3d4e5f60718293a4b/hls?Signature=x" }],
      },
      transcripts: [{ segments: [{ segment_id: 0, start_time: "1200", end_time: "4100" }] }],
    });
    expect(out).not.toHaveProperty("period");
    expect(out).not.toHaveProperty("year");
    expect(out).not.toHaveProperty("recordings");
  });

  it("leaves calendars, the v3 balance sheet and media alone", () => {
    const body = { earnings: [{ id: "x" }] };
    expect(toDocumentedBody("/api/v2.1/calendar/earnings", body, { baseUrl: BASE })).toBe(body);
    expect(toDocumentedBody("/api/v3/fundamentals/balance-sheet", body, { baseUrl: BASE })).toBe(body);
    expect(toDocumentedBody("/api/v1/transcripts/calls/abc/hls", body, { baseUrl: BASE })).toBe(body);
  });
});

describe("ackFrame", () => {
  it("is plain text in the contract and a JSON string in the documented dialect", () => {
    expect(ackFrame("contract", "Subscribed to NWSC")).toBe("Subscribed to NWSC");
    expect(ackFrame("documented", "Subscribed to NWSC")).toBe('"Subscribed to NWSC"');
  });
});
