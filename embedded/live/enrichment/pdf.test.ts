import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createEnricher } from "./index";
import { formatCallDate, formatOffset, formatSentiment } from "./pdf";
import { BEAT_CALL } from "../../test/fixtures/calls";
import type { EnrichmentInput } from "./types";

/** Inflates every FlateDecode stream and decodes the hex strings pdfkit writes inside TJ text operators. */
function extractText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  const out: string[] = [];
  const streamPattern = /stream\r?\n/g;
  for (let match = streamPattern.exec(raw); match !== null; match = streamPattern.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString("latin1");
    } catch {
      continue;
    }
    for (const tj of content.matchAll(/\[(.*?)\]\s*TJ/g)) {
      const hex = [...(tj[1] ?? "").matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1] ?? "").join("");
      out.push(Buffer.from(hex, "hex").toString("latin1"));
    }
    streamPattern.lastIndex = end;
  }
  return out.join("\n");
}

const pageCount = (pdf: Buffer): number => pdf.toString("latin1").match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;

describe("renderPdf", () => {
  const enricher = createEnricher();
  const result = enricher.enrich(BEAT_CALL);

  it("renders a PDF holding the title, participants, summary and every segment", async () => {
    const pdf = await enricher.renderPdf(BEAT_CALL, result);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.subarray(-6).toString("latin1")).toContain("%%EOF");
    const text = extractText(pdf);
    expect(text).toContain("Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call");
    expect(text).toContain("Participants");
    expect(text).toContain("Priya Raman");
    expect(text).toContain("Halvorsen Capital");
    expect(text).toContain("Overall sentiment:");
    expect(text).toContain(formatSentiment(result.overallSentiment));
    expect(text).toContain("00:00:22");
    expect(text).toContain("Page 1 of");
    expect(text).toContain("Thursday, July 23, 2026, 10:00 EDT (14:00 UTC)");
    expect(pdf.toString("latin1")).toMatch(/\/Title \d+ 0 R/);
    expect(pageCount(pdf)).toBeGreaterThanOrEqual(2);
  });

  it("numbers every page in the footer of a long transcript", async () => {
    const long: EnrichmentInput = {
      ...BEAT_CALL,
      segments: Array.from({ length: 160 }, (_, i) => ({
        ...(BEAT_CALL.segments[i % BEAT_CALL.segments.length] ?? BEAT_CALL.segments[0]!),
        sequence: i,
        startMs: i * 4_000,
        endMs: i * 4_000 + 3_500,
      })),
    };
    const pdf = await enricher.renderPdf(long, enricher.enrich(long));
    const pages = pageCount(pdf);
    expect(pages).toBeGreaterThan(3);
    const text = extractText(pdf);
    for (let page = 1; page <= pages; page += 1) expect(text).toContain(`Page ${page} of ${pages}`);
    expect(text).not.toContain(`Page ${pages + 1} of`);
  });

  it("gives the same bytes for the same input", async () => {
    const first = await enricher.renderPdf(BEAT_CALL, result);
    const second = await createEnricher().renderPdf(BEAT_CALL, createEnricher().enrich(BEAT_CALL));
    expect(second.equals(first)).toBe(true);
  });

  it("maps characters outside WinAnsi instead of failing", async () => {
    const odd: EnrichmentInput = {
      ...BEAT_CALL,
      segments: [
        { sequence: 0, speakerLabel: "SPEAKER_1", text: "Margin −2% 中文 ✓ café", startMs: 0, endMs: 1000 },
      ],
    };
    const pdf = await enricher.renderPdf(odd, enricher.enrich(odd));
    expect(extractText(pdf)).toContain("caf");
  });
});

describe("pdf formatting helpers", () => {
  it("formats offsets as HH:MM:SS", () => {
    expect(formatOffset(0)).toBe("00:00:00");
    expect(formatOffset(3_723_999)).toBe("01:02:03");
  });

  it("formats the call time in US Eastern with its zone, then UTC", () => {
    expect(formatCallDate(new Date("2026-01-15T21:30:00Z"))).toBe(
      "Thursday, January 15, 2026, 16:30 EST (21:30 UTC)",
    );
  });

  it("labels sentiment", () => {
    expect(formatSentiment(0.42)).toBe("+0.42 (positive)");
    expect(formatSentiment(-0.3)).toBe("-0.30 (negative)");
    expect(formatSentiment(0)).toBe("0.00 (neutral)");
  });
});
