import { describe, expect, it } from "vitest";
import {
  parseParticipant,
  parseTranscriptFile,
  parseTranscriptName,
  TranscriptFileError,
} from "./transcript-file";

describe("transcript files", () => {
  it("reads the ticker, fiscal quarter and year from the file name", () => {
    expect(parseTranscriptName("AAPL_q1_2022.json")).toEqual({ ticker: "AAPL", period: "Q1", year: 2022 });
    expect(parseTranscriptName("brk.b_q4_2020.json")).toEqual({ ticker: "BRK.B", period: "Q4", year: 2020 });
    for (const bad of [
      "AAPL_q5_2022.json",
      "AAPL_2022.json",
      "AAPL_q1_2022.txt",
      "_q1_2022.json",
      "../A_q1_2022.json",
    ])
      expect(parseTranscriptName(bad), bad).toBeNull();
  });

  it("reads participants: the company's people, analysts with their firm, bare names", () => {
    expect(parseParticipant("Dana Whitfield--Chief Financial Officer")).toEqual({
      name: "Dana Whitfield",
      role: "Executive",
      title: "Chief Financial Officer",
      organization: "",
    });
    expect(parseParticipant("Lee Park--Crestline Research -- Analyst")).toEqual({
      name: "Lee Park",
      role: "Analyst",
      title: "Analyst",
      organization: "Crestline Research",
    });
    expect(parseParticipant("Lee Park--Crestline Research -- Managing Director")).toMatchObject({
      role: "Analyst",
      title: "Managing Director",
      organization: "Crestline Research",
    });
    expect(parseParticipant("Ann Roe--Analyst.")).toMatchObject({ role: "Analyst", organization: "" });
    expect(parseParticipant("Unidentified Participant")).toMatchObject({ role: "Unknown", title: "" });
    expect(parseParticipant("  --Chief Executive Officer")).toBeNull();
  });

  it("splits turns into sentences by paragraph, keeping the words as written, and skips what it cannot read", () => {
    const file = parseTranscriptFile(
      { ticker: "ZZZ", period: "Q2", year: 2021 },
      JSON.stringify({
        prepared_remarks: [
          { speaker: "Operator", speech: "Hello, and welcome.  We start now.\n\nDr. Chen, please go ahead." },
          { speaker: "Jo Chen" },
          42,
        ],
        q_and_a: "not a list",
        participants: ["Jo Chen--Chief Executive Officer", 3],
      }),
    );
    expect(file.turns).toEqual([
      {
        speaker: "Operator",
        section: "prepared",
        sentences: ["Hello, and welcome.", "We start now.", "Dr. Chen, please go ahead."],
      },
    ]);
    expect(file.participants.map((p) => p.name)).toEqual(["Jo Chen"]);
  });

  it("refuses what holds nothing to replay, saying why", () => {
    const name = { ticker: "ZZZ", period: "Q2" as const, year: 2021 };
    expect(() => parseTranscriptFile(name, "{")).toThrow(new TranscriptFileError("the file is not JSON"));
    expect(() => parseTranscriptFile(name, "[1]")).toThrow(/not a transcript object/);
    expect(() => parseTranscriptFile(name, "{}")).toThrow(/no speaker turn/);
  });
});
