import { describe, expect, it } from "vitest";
import { CURRENT_CALL, sentencesOf } from "@/test/fixtures/insights/calls";
import { parseIntro } from "./intros";
import { detectQa } from "./qa";

describe("parseIntro", () => {
  it.each([
    [
      "Our next question comes from Jane Doe with Morgan Stanley. Your line is open.",
      "Jane Doe",
      "Morgan Stanley",
    ],
    [
      "Our first question comes from the line of Ravi K. Patel from Bank of America.",
      "Ravi K. Patel",
      "Bank of America",
    ],
    ["We'll take our next question from Lena Fischer at J.P. Morgan.", "Lena Fischer", "J.P. Morgan"],
    ["Tom Okafor with Halden Securities, your line is open.", "Tom Okafor", "Halden Securities"],
    ["We have a follow-up question from Jane Doe with Morgan Stanley.", "Jane Doe", "Morgan Stanley"],
  ])("%s", (text, analyst, firm) => {
    expect(parseIntro(text)).toEqual({ analyst, firm });
  });

  it("reads nothing into other operator lines", () => {
    expect(parseIntro("At this time, all participants are in a listen-only mode.")).toBeNull();
    expect(parseIntro("There are no further questions at this time.")).toBeNull();
  });
});

describe("detectQa", () => {
  const qa = detectQa(CURRENT_CALL);

  it("tells the prepared remarks from the Q&A", () => {
    expect(qa.qaStartSequence).toBe(8);
  });

  it("lists each analyst's turn with the question, who answered and how long", () => {
    expect(qa.turns).toHaveLength(2);
    expect(qa.turns[0]).toMatchObject({
      sequence: 9,
      analyst: "Jane Doe",
      firm: "Morgan Stanley",
      speaker: "SPEAKER_3",
      question: "Can you talk about the tariff impact on gross margin next year?",
      questionSequence: 11,
      answeredBy: ["SPEAKER_2"],
      answerSentences: 2,
      answerWords: 12,
      answerMs: 9_000,
      answerSentiment: 0.2,
    });
    expect(qa.turns[1]).toMatchObject({
      analyst: "Tom Okafor",
      speaker: "SPEAKER_4",
      answeredBy: ["SPEAKER_1"],
    });
  });

  it("names analysts and answerers from enrichment, with the participants' firms", () => {
    const named = CURRENT_CALL.map((s) =>
      s.speaker === "SPEAKER_3"
        ? { ...s, speakerName: "Jane A. Doe" }
        : s.speaker === "SPEAKER_2"
          ? { ...s, speakerName: "Dana Whitfield" }
          : s,
    );
    const enriched = detectQa(named, [
      { name: "Jane A. Doe", role: "Analyst", organization: "Morgan Stanley & Co." },
    ]);
    expect(enriched.turns[0]).toMatchObject({
      analyst: "Jane A. Doe",
      firm: "Morgan Stanley & Co.",
      answeredBy: ["Dana Whitfield"],
    });
  });

  it("gives each speaker a role and a mean sentiment", () => {
    const bySpeaker = Object.fromEntries(qa.speakers.map((s) => [s.speaker, s]));
    expect(bySpeaker.OPERATOR).toMatchObject({ role: "operator", sentiment: null });
    expect(bySpeaker.SPEAKER_1).toMatchObject({ role: "management", sentiment: 0.2 });
    expect(bySpeaker.SPEAKER_3).toMatchObject({ role: "analyst", name: "Jane Doe", firm: "Morgan Stanley" });
  });

  it("has no Q&A while the prepared remarks go on", () => {
    const early = detectQa(CURRENT_CALL.slice(0, 6));
    expect(early.qaStartSequence).toBeNull();
    expect(early.turns).toEqual([]);
  });
});

describe("a colleague asking in the introduced analyst's place", () => {
  it("lists the one who asks, with the introduced analyst's firm", () => {
    const lines: [string, string][] = [
      ["SPEAKER_1", "Revenue was $1.2 billion in the quarter."],
      ["OPERATOR", "Our first question comes from Katy Fenwick with Ridgeway Securities."],
      ["SPEAKER_2", "Hey, good morning."],
      ["SPEAKER_2", "This is actually Bruno Biro on for Katy."],
      ["SPEAKER_2", "How are you thinking about pricing into next year?"],
      ["SPEAKER_1", "We expect pricing to hold."],
    ];
    const qa = detectQa(sentencesOf(lines));
    expect(qa.turns).toEqual([
      expect.objectContaining({ analyst: "Bruno Biro", firm: "Ridgeway Securities", speaker: "SPEAKER_2" }),
    ]);
  });
});

describe("where the Q&A starts", () => {
  const call = (lines: [string, string][]) => detectQa(sentencesOf(lines)).qaStartSequence;

  it.each([
    ["OPERATOR", "Our hosts will review the quarter and then open the line for questions."],
    ["SPEAKER_1", "Once we have finished our prepared comments, we'll open the call to questions."],
    ["SPEAKER_1", "I will then share a few closing thoughts and open the floor for questions."],
    ["SPEAKER_1", "Before we open the lines for questions, let me recap three points."],
  ])("not at an agenda's announcement: %s %s", (speaker, text) => {
    expect(
      call([
        ["OPERATOR", "Welcome to the Northwind third quarter call."],
        [speaker, text],
        ["SPEAKER_1", "Revenue grew 8% to $412 million."],
        ["SPEAKER_1", "With that, operator, please open the line for questions."],
        ["OPERATOR", "Our first question comes from Lena Ortiz with Harbor Bank."],
      ]),
    ).toBe(3);
  });
});
