import { describe, expect, it } from "vitest";
import { liveSentiment } from "./index";
import { overallSentiment, scoreSentence, scoreText } from "./score";
import { splitSentences, stem } from "./text";

const score = (sentence: string) => scoreSentence(sentence).score;

describe("scoreSentence", () => {
  it("scores clearly positive financial sentences above 0", () => {
    for (const sentence of [
      "We delivered record revenue this quarter.",
      "Results came in well ahead of expectations.",
      "Gross margin expansion continued, driven by a favorable mix.",
      "Revenue was $4.2 billion, up 12% year over year.",
      "We are raising our full-year guidance.",
    ]) {
      expect(score(sentence), sentence).toBeGreaterThan(0.3);
    }
  });

  it("scores clearly negative financial sentences below 0", () => {
    for (const sentence of [
      "Revenue came in below guidance.",
      "We recorded an impairment charge on the legacy business.",
      "We continue to face significant headwinds in China.",
      "Revenue declined 9% year over year.",
      "We are lowering our outlook for the full year.",
      "Demand weakened and we lost share.",
    ]) {
      expect(score(sentence), sentence).toBeLessThan(-0.3);
    }
  });

  it("flips polarity when a negator precedes within three words", () => {
    expect(score("Demand was strong.")).toBeGreaterThan(0);
    expect(score("Demand was not strong.")).toBeLessThan(0);
    expect(score("We saw no growth in the segment.")).toBeLessThan(0);
    expect(score("We didn't meet expectations this quarter.")).toBeLessThan(0);
    expect(score("Results were not bad.")).toBeGreaterThan(0);
    // A negation scope ends at a clause break.
    expect(score("It was not easy, but margins were strong.")).toBeGreaterThan(0);
  });

  it("gives a negated negative less weight than a plain positive (litotes)", () => {
    expect(score("Results were not bad.")).toBeLessThan(score("Results were good."));
  });

  it("applies intensifiers and diminishers", () => {
    const plain = score("Demand improved.");
    expect(score("Demand improved significantly.")).toBeGreaterThan(plain);
    expect(score("Demand improved slightly.")).toBeLessThan(plain);
    expect(score("Demand improved slightly.")).toBeGreaterThan(0);
  });

  it("reads numeric direction cues and inverts them for costs", () => {
    expect(score("Sales were up 14% from a year ago.")).toBeGreaterThan(0);
    expect(score("Sales were down 14% from a year ago.")).toBeLessThan(0);
    expect(score("Sales increased to $2.1 billion.")).toBeGreaterThan(0);
    expect(score("Sales decreased to $2.1 billion.")).toBeLessThan(0);
    expect(score("Operating expenses decreased 3% year over year.")).toBeGreaterThan(0);
    expect(score("Operating costs increased 3% year over year.")).toBeLessThan(0);
    // A large move counts more than a small one.
    expect(score("Revenue grew 25%.")).toBeGreaterThan(score("Revenue grew 2%."));
    // "up" without a figure is not a cue ("follow up").
    expect(score("I wanted to follow up on the data center question.")).toBe(0);
  });

  it("matches stems: plurals, -ed and -ing forms", () => {
    expect(stem("declines")).toBe(stem("decline"));
    expect(stem("declined")).toBe(stem("decline"));
    expect(stem("declining")).toBe(stem("decline"));
    expect(stem("headwinds")).toBe(stem("headwind"));
    expect(stem("losses")).toBe(stem("loss"));
    expect(score("We are facing headwinds.")).toBeLessThan(0);
    expect(score("We are facing a headwind.")).toBeLessThan(0);
    expect(score("Margins are strengthening.")).toBeGreaterThan(0);
  });

  it("scores procedural and factual sentences as neutral", () => {
    for (const sentence of [
      "Thank you, operator.",
      "Thanks, Dana.",
      "Good morning, everyone, and welcome to the third quarter earnings call.",
      "This conference is being recorded.",
      "Our next question comes from Priya Raman with Halvorsen Capital.",
      "Please go ahead.",
      "Today's discussion contains forward-looking statements that involve risks and uncertainties.",
      "The company is headquartered in Austin, Texas.",
    ]) {
      expect(score(sentence), sentence).toBe(0);
    }
  });

  it("stays within [-1, 1] even for piles of one-sided evidence", () => {
    const positive =
      "Record revenue, record margins, exceptional strength, outstanding momentum, robust growth, excellent execution, ".repeat(
        20,
      );
    const negative =
      "Severe impairment, weak demand, heavy losses, sharp declines, disappointing results, litigation, ".repeat(
        20,
      );
    for (const text of [positive, negative]) {
      const value = scoreText(text).score;
      expect(value).toBeGreaterThanOrEqual(-1);
      expect(value).toBeLessThanOrEqual(1);
    }
    expect(scoreText(positive).score).toBeGreaterThan(0.95);
    expect(scoreText(negative).score).toBeLessThan(-0.95);
  });

  it("is deterministic", () => {
    const text =
      "Revenue was $4.2 billion, up 18% and ahead of guidance, though supply chain disruptions remain a risk.";
    const first = scoreSentence(text);
    for (let i = 0; i < 5; i += 1) expect(scoreSentence(text)).toEqual(first);
  });
});

describe("overall call sentiment", () => {
  it("weights executives over analysts and ignores the operator", () => {
    const positive = scoreSentence("We delivered record revenue and strong margins.");
    const negative = scoreSentence("Demand was weak and margins were disappointing.");
    // An executive saying good news outweighs an analyst voicing worry, and the operator counts for nothing.
    expect(
      overallSentiment([
        { role: "Executive", sentiment: positive },
        { role: "Analyst", sentiment: negative },
      ]),
    ).toBeGreaterThan(0);
    expect(overallSentiment([{ role: "Operator", sentiment: negative }])).toBe(0);
  });
});

describe("splitSentences", () => {
  it("keeps decimals and abbreviations inside a sentence", () => {
    expect(splitSentences("EPS was $1.99. Revenue rose 12% to $4.2 billion! Mr. Lee will add more.")).toEqual(
      ["EPS was $1.99.", "Revenue rose 12% to $4.2 billion!", "Mr. Lee will add more."],
    );
  });
});

describe("liveSentiment", () => {
  it("gives one live sentence a rounded score in [-1, 1] with the sign of its words", () => {
    const up = liveSentiment("Revenue grew 18% to a record $4.2 billion, well ahead of our guidance.");
    const down = liveSentiment("Gross margin declined sharply on weak demand and an impairment charge.");
    expect(up).toBeGreaterThan(0.3);
    expect(down).toBeLessThan(-0.3);
    for (const v of [up, down]) {
      expect(v).toBeGreaterThanOrEqual(-1);
      expect(v).toBeLessThanOrEqual(1);
      expect(Math.round(v * 1000)).toBe(v * 1000);
    }
    expect(liveSentiment("Good morning, and welcome to the call.")).toBe(0);
    expect(liveSentiment("")).toBe(0);
  });

  it("agrees with the enrichment's per-segment score for the same text", () => {
    const text = "Operating expenses decreased 6%, and free cash flow was strong. Not a bad quarter.";
    expect(liveSentiment(text)).toBeCloseTo(scoreText(text).score, 3);
  });
});
