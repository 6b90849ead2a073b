import { describe, expect, it } from "vitest";
import { parseIntro } from "./intros";
import { LiveRoles } from "./live-roles";
import { detectQa } from "./qa";
import type { TranscriptSentence } from "./sentence";
import { inferSpeakerNames } from "./speakers";

const call = (rows: [string, string][], names: Record<string, string> = {}): TranscriptSentence[] =>
  rows.map(([speaker, text], sequence) => ({
    sequence,
    speaker,
    speakerName: names[speaker] ?? null,
    startMs: sequence * 5_000,
    endMs: sequence * 5_000 + 4_000,
    text,
  }));

// A call as a live feed carries it: voices labelled, names only in what is said (written for this test).
const LIVE = call([
  ["OPERATOR", "Good afternoon and welcome to the Northwind Semiconductor third quarter 2026 earnings call."],
  ["OPERATOR", "I would now like to turn the conference over to Priya Raman, Head of Investor Relations."],
  ["SPEAKER_1", "Thank you, operator."],
  [
    "SPEAKER_1",
    "With me today are Marcus Lindqvist, our Chief Executive Officer, and Dana Whitfield, our CFO.",
  ],
  ["SPEAKER_1", "I'll now turn the call over to Marcus."],
  ["SPEAKER_2", "Thanks, Priya, and good afternoon, everyone."],
  ["SPEAKER_2", "Demand was strong across our Data Center business."],
  ["SPEAKER_2", "Now Dana will review the numbers in more detail."],
  ["SPEAKER_3", "Thank you, Marcus."],
  ["SPEAKER_3", "Revenue was $4.2 billion."],
  ["OPERATOR", "Thank you. Our first question comes from the line of Jane Doe with Morgan Stanley."],
  ["SPEAKER_4", "Thanks for taking my question. How should we think about pricing?"],
  ["SPEAKER_2", "Good afternoon, Jane. Pricing has been stable."],
  ["SPEAKER_2", "Dana, do you want to add anything?"],
  ["SPEAKER_3", "Just that we expect gross margin to hold."],
  ["OPERATOR", "Tom Okafor with Halden Securities, your line is open."],
  ["SPEAKER_5", "Hi. Can you talk about inventory?"],
  ["SPEAKER_6", "Sure, this is Elena Marsh, I run operations."],
]);

describe("inferSpeakerNames", () => {
  it("names each voice from introductions and hand-offs, marked as inferred", () => {
    const names = inferSpeakerNames(LIVE);
    expect(Object.fromEntries([...names].map(([label, n]) => [label, n.name]))).toEqual({
      OPERATOR: "Operator",
      SPEAKER_1: "Priya Raman",
      SPEAKER_2: "Marcus Lindqvist",
      SPEAKER_3: "Dana Whitfield",
      SPEAKER_4: "Jane Doe",
      SPEAKER_5: "Tom Okafor",
      SPEAKER_6: "Elena Marsh",
    });
    expect(names.get("SPEAKER_2")?.inferred).toBe(true);
  });

  it("knows a voice as soon as it speaks, not only by the end of the call", () => {
    const upTo = (n: number) => inferSpeakerNames(LIVE.slice(0, n));
    expect(upTo(6).get("SPEAKER_2")?.name).toBe("Marcus Lindqvist");
    expect(upTo(9).get("SPEAKER_3")?.name).toBe("Dana Whitfield");
  });

  it("takes enrichment's names over its own, and no longer marks them inferred", () => {
    const enriched = call(
      LIVE.map((s) => [s.speaker, s.text]),
      { SPEAKER_2: "Marcus J. Lindqvist" },
    );
    expect(inferSpeakerNames(enriched).get("SPEAKER_2")).toEqual({
      name: "Marcus J. Lindqvist",
      inferred: false,
    });
  });

  it("does not give the operator's name to the voice thanked after the operator", () => {
    const names = inferSpeakerNames(
      call([
        ["OPERATOR", "My name is Sylvia and I will be your operator today."],
        ["SPEAKER_1", "Thank you, Sylvia. Welcome, everyone."],
      ]),
    );
    expect(names.get("SPEAKER_1")).toBeUndefined();
  });
});

describe("detectQa with live voices", () => {
  const qa = detectQa(LIVE);

  it("lists answerers and speakers by the names read from the call", () => {
    expect(qa.turns.map((t) => [t.analyst, t.firm, t.answeredBy])).toEqual([
      ["Jane Doe", "Morgan Stanley", ["Marcus Lindqvist", "Dana Whitfield"]],
      ["Tom Okafor", "Halden Securities", ["Elena Marsh"]],
    ]);
    const marcus = qa.speakers.find((s) => s.speaker === "SPEAKER_2");
    expect(marcus).toMatchObject({ name: "Marcus Lindqvist", nameInferred: true, role: "management" });
  });
});

describe("parseIntro in the phrasings real operators use", () => {
  it.each([
    [
      "Your first question here comes from the line of Chris Vale from Rowan & Ash. Please go ahead.",
      "Chris Vale",
      "Rowan & Ash",
    ],
    ["Kyle Brandt with Hollis Partners. Your line is open.", "Kyle Brandt", "Hollis Partners"],
    [
      "And next, we'll go to the line of Peter Armitage with Baird. Please go ahead.",
      "Peter Armitage",
      "Baird",
    ],
    [
      "Our next question is from Josh Spectre, Talbot Securities. Please go ahead.",
      "Josh Spectre",
      "Talbot Securities",
    ],
    ["Larry Biegel of Wellstone is on line with a question.", "Larry Biegel", "Wellstone"],
    ["And we'll go first to Steven Fisk with UBS.", "Steven Fisk", "UBS"],
    [
      "The next question will be from Lisa Gill with J.P. Morgan. Please go ahead.",
      "Lisa Gill",
      "J.P. Morgan",
    ],
    [
      "We have the first question on the phone lines from Kyle Jordan of Jefferies.",
      "Kyle Jordan",
      "Jefferies",
    ],
    ["And our first question today comes from line of Pete Armand with Baird.", "Pete Armand", "Baird"],
    ["Our next question comes from R.J. Mulligan with Raymond James.", "R.J. Mulligan", "Raymond James"],
    ["Our first question comes from Bradford -- Brady Gaylor from KBW.", "Brady Gaylor", "KBW"],
    ["Sir, for the first question, we have Chris Hove from Barringer.", "Chris Hove", "Barringer"],
    ["And next, we'll hear from Ike Borrow with Wells Fargo.", "Ike Borrow", "Wells Fargo"],
    ["And we'll move on to Susan Andersen with B. Riley FBR.", "Susan Andersen", "B. Riley FBR"],
  ])("%s", (text, analyst, firm) => {
    expect(parseIntro(text)).toEqual({ analyst, firm });
  });

  it("reads no introduction into the operator presenting the company's speakers", () => {
    expect(parseIntro("Today we have John Smith, CEO of Acme, with us.")).toBeNull();
  });

  it("takes an introduction without a firm as one", () => {
    expect(parseIntro("And we do have another question from the line of Vedula Murthy.")).toEqual({
      analyst: "Vedula Murthy",
      firm: null,
    });
  });
});

describe("LiveRoles", () => {
  it("tells management, the operator and analysts apart as the call goes", () => {
    const roles = new LiveRoles();
    const seen = LIVE.map((s) => `${s.speaker}:${roles.observe("c", s.speaker, s.text)}`);
    expect(new Set(seen)).toEqual(
      new Set([
        "OPERATOR:operator",
        "SPEAKER_1:management",
        "SPEAKER_2:management",
        "SPEAKER_3:management",
        "SPEAKER_4:analyst",
        "SPEAKER_5:analyst",
        "SPEAKER_6:management",
      ]),
    );
  });
});
