import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { corpusTranscript } from "@/test/storage/transcript-files";
import { estimatedStart, importedCallId, parseImportFile } from "./parse-file";

const corpusFile = (name: string, body = corpusTranscript()) => parseImportFile(name, JSON.stringify(body));

describe("parseImportFile: the corpus's transcripts", () => {
  it("reads symbol and quarter from the file name, and keeps every sentence in order with its speaker", () => {
    const { call, origin } = corpusFile("/data/QFTR_q1_2021.json");
    expect(call).toMatchObject({
      callId: "imp-qftr-q1-2021",
      symbol: "QFTR",
      period: "Q1",
      year: 2021,
      status: "completed",
      hasAudio: false,
      startTime: "2021-04-25T13:00:00.000Z",
    });
    const texts = call.segments.map((s) => s.text);
    expect(texts).toContain("Revenue was $412 million, up 9% from a year ago.");
    // "Mr." does not end a sentence; a decimal does not either.
    expect(texts).toContain("Mr. Abernethy will cover margins.");
    expect(texts).toContain("Gross margin expanded to 41.5% on pricing discipline.");
    expect(call.segments.map((s) => s.sequence)).toEqual(call.segments.map((_, i) => i + 1));
    for (let i = 1; i < call.segments.length; i += 1) {
      expect(call.segments[i]!.startMs).toBeGreaterThanOrEqual(call.segments[i - 1]!.endMs);
    }
    const speakerOf = (text: string) => call.segments.find((s) => s.text === text)!;
    expect(speakerOf("Good day, and welcome to the Quillfeather first quarter call.")).toMatchObject({
      speaker: "OPERATOR",
      speakerName: null,
    });
    expect(speakerOf("We think it holds.")).toMatchObject({
      speaker: "SPEAKER_1",
      speakerName: "Maren Holloway",
    });
    expect(speakerOf("How durable is the pricing discipline into next year?")).toMatchObject({
      speaker: "SPEAKER_3",
      speakerName: "Ines Varga",
    });
    // The file's own parts, one per sentence.
    expect(origin.sections).toHaveLength(call.segments.length);
    expect(origin.sections![texts.indexOf("We think it holds.")]).toBe("qa");
    expect(origin.sections![texts.indexOf("Gross margin expanded to 41.5% on pricing discipline.")]).toBe(
      "prepared",
    );
    expect(call.participants).toEqual([
      expect.objectContaining({
        name: "Maren Holloway",
        role: "Chief Executive Officer",
        organization: null,
      }),
      expect.objectContaining({ name: "Tobias Abernethy", role: "Chief Financial Officer" }),
      expect.objectContaining({ name: "Ines Varga", role: "Analyst", organization: "Kestrel Partners" }),
    ]);
  });

  it("gives the same id and digest for the same file, and a new digest for a changed one", () => {
    const a = corpusFile("QFTR_q1_2021.json");
    const b = corpusFile("/elsewhere/QFTR_q1_2021.json");
    expect(b.call.callId).toBe(a.call.callId);
    expect(b.origin.contentHash).toBe(a.origin.contentHash);
    const changed = corpusFile("QFTR_q1_2021.json", corpusTranscript({ remarks: ["Backlog rose."] }));
    expect(changed.call.callId).toBe(a.call.callId);
    expect(changed.origin.contentHash).not.toBe(a.origin.contentHash);
  });

  it("places fourth quarters in the next year, and makes odd names into valid ids", () => {
    expect(estimatedStart(4, 2020)).toBe("2021-01-25T13:00:00.000Z");
    expect(importedCallId("BRK.B_q2_2022.json")).toBe("imp-brk-b-q2-2022");
    const long = importedCallId(`${"very long name ".repeat(10)}.json`);
    expect(long).toMatch(/^imp-[a-z0-9-]+-[0-9a-f]{12}$/);
    expect(long.length).toBeLessThanOrEqual(64);
    expect(importedCallId("%%%.json")).toMatch(/^imp-[0-9a-f]{12}$/);
  });

  it("reads a file with no Q&A", () => {
    const body = { ...corpusTranscript(), q_and_a: [] };
    expect(corpusFile("QFTR_q2_2021.json", body).origin.sections).not.toContain("qa");
  });

  it("says what is wrong with a file it cannot read", () => {
    expect(() => parseImportFile("x.json", "{")).toThrow("not JSON");
    expect(() => corpusFile("quillfeather.json")).toThrow(/named <TICKER>_q<N>_<YEAR>\.json/);
    expect(() => parseImportFile("QFTR_q1_2021.json", JSON.stringify({ prepared_remarks: "no" }))).toThrow(
      /not a transcript: prepared_remarks/,
    );
    expect(() =>
      parseImportFile("QFTR_q1_2021.json", JSON.stringify({ prepared_remarks: [], q_and_a: [] })),
    ).toThrow("no sentence");
    expect(() => parseImportFile("call.json", JSON.stringify({ hello: 1 }))).toThrow(/neither a corpus/);
  });
});

describe("parseImportFile: the service's own call JSON", () => {
  it("reads it as a live answer would be read, keeping its id", () => {
    const file = path.resolve("test/fixtures/upstream/documented/call.json");
    const { call, origin } = parseImportFile(file, readFileSync(file));
    expect(call.callId).not.toMatch(/^imp-/);
    expect(call.segments.length).toBeGreaterThan(0);
    expect(origin.sections).toBeNull();
  });
});
