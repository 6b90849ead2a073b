import { describe, expect, it } from "vitest";
import { replayPlan } from "./replay-script";
import type { TranscriptFile } from "./transcript-file";

const file: TranscriptFile = {
  name: { ticker: "ZZZ", period: "Q3", year: 2021 },
  turns: [
    { speaker: "Operator", section: "prepared", sentences: ["Welcome to the call."] },
    { speaker: "Jo Chen", section: "prepared", sentences: ["Thanks.", "Revenue grew nicely this quarter."] },
    { speaker: "Operator", section: "qa", sentences: ["Our first question comes from Sam Lee."] },
    { speaker: "Sam Lee", section: "qa", sentences: ["What about margins?"] },
    { speaker: "Jo Chen", section: "qa", sentences: ["They held."] },
    { speaker: "Pat Kim", section: "qa", sentences: ["I would add one thing."] },
  ],
  participants: [{ name: "Jo Chen", role: "Executive", title: "Chief Executive Officer", organization: "" }],
};

describe("replayPlan", () => {
  const plan = replayPlan(file, "c".repeat(24));

  it("labels the operator OPERATOR and everyone else SPEAKER_n in order of first appearance, one per person", () => {
    expect(plan.script.sentences.map((s) => s.speakerLabel)).toEqual([
      "OPERATOR",
      "SPEAKER_1",
      "SPEAKER_1",
      "OPERATOR",
      "SPEAKER_2",
      "SPEAKER_1",
      "SPEAKER_3",
    ]);
    expect(plan.script.sentences.map((s) => s.section)).toEqual([
      "prepared",
      "prepared",
      "prepared",
      "qa",
      "qa",
      "qa",
      "qa",
    ]);
    expect(plan.script).toMatchObject({
      period: "Q3",
      year: 2021,
      title: "Q3 2021 ZZZ Earnings Conference Call",
    });
  });

  it("names the speakers from the participants, and guesses the role of one the list leaves out", () => {
    expect(plan.script.speakers).toEqual([
      { label: "OPERATOR", name: "Operator", role: "Operator", title: "Operator", organization: "ZZZ" },
      {
        label: "SPEAKER_1",
        name: "Jo Chen",
        role: "Executive",
        title: "Chief Executive Officer",
        organization: "ZZZ",
      },
      // Not listed, first heard right after the operator in the Q&A: the analyst the operator introduced.
      { label: "SPEAKER_2", name: "Sam Lee", role: "Analyst", title: "Analyst", organization: "" },
      // Not listed, first heard after an executive: the company's.
      { label: "SPEAKER_3", name: "Pat Kim", role: "Executive", title: "Executive", organization: "ZZZ" },
    ]);
  });

  it("times sentences at 400 ms a word, with a breath within a turn and a longer pause between speakers", () => {
    // "Welcome to the call." is 4 words (1.6 s), "Thanks." 1, "Revenue grew nicely this quarter." 5, …
    expect(plan.startsMs).toEqual([1200, 3600, 4300, 7100, 10700, 12700, 14300]);
    expect(plan.durationSeconds).toBe(Math.ceil((14300 + 2000 + 1500) / 1000));
  });
});
