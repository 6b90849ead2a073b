import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv";

describe("CSV", () => {
  it("writes a header and one CRLF-terminated line per row", () => {
    const csv = toCsv(
      [
        { ticker: "NWSC", eps: 1.99 },
        { ticker: "ACME", eps: null },
      ],
      [
        { header: "Ticker", value: (r) => r.ticker },
        { header: "EPS", value: (r) => r.eps },
      ],
    );
    expect(csv).toBe("Ticker,EPS\r\nNWSC,1.99\r\nACME,\r\n");
  });
  it("quotes commas, quotes and line breaks", () => {
    expect(csvCell("Acme, Inc.")).toBe('"Acme, Inc."');
    expect(csvCell('The "Big" One')).toBe('"The ""Big"" One"');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
  });
  it("neutralises cells a spreadsheet would run as formulas", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("-2+3")).toBe("'-2+3");
  });
  it("writes numbers raw and drops non-finite ones", () => {
    expect(csvCell(-0.25)).toBe("-0.25");
    expect(csvCell(102466000000)).toBe("102466000000");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(undefined)).toBe("");
  });
});
