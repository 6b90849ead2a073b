import { describe, expect, it } from "vitest";
import { PhraseMatcher, type PhraseHit } from "./matcher";
import type { CompiledRule } from "./rules";
import { stem, words } from "./text";

function rule(id: string, over: Partial<CompiledRule> = {}): CompiledRule {
  return {
    id,
    userId: "u1",
    kind: "keyword",
    label: id,
    phrase: null,
    tickers: null,
    speakerRole: null,
    threshold: null,
    ...over,
  };
}

const say = (text: string, symbol = "NWSC", speaker = "SPEAKER_1") => ({ text, symbol, speaker });
const ids = (hits: PhraseHit[]) => hits.map((h) => h.rule.id).sort();

describe("words and stems", () => {
  it("folds plurals and simple inflections onto one key", () => {
    expect(stem("tariffs")).toBe(stem("tariff"));
    expect(stem("companies")).toBe(stem("company"));
    expect(stem("boxes")).toBe(stem("box"));
    expect(stem("raised")).toBe(stem("raise"));
    expect(stem("raising")).toBe(stem("raise"));
    expect(stem("stopped")).toBe(stem("stop"));
    expect(stem("margins")).toBe(stem("margin"));
    expect(stem("losses")).toBe(stem("loss"));
  });

  it("keeps distinct words apart", () => {
    expect(stem("tariff")).not.toBe(stem("traffic"));
    expect(stem("margin")).not.toBe(stem("marginal"));
    expect(stem("cost")).not.toBe(stem("coast"));
  });

  it("splits on punctuation and keeps apostrophes inside words", () => {
    expect(words("Year-over-year, the company's margin grew 3.5%!")).toEqual([
      "year",
      "over",
      "year",
      "the",
      "company's",
      "margin",
      "grew",
      "3",
      "5",
    ]);
  });
});

describe("PhraseMatcher", () => {
  it("finds a keyword as a whole word, case-insensitively, with its inflections", () => {
    const m = new PhraseMatcher([rule("r1", { phrase: "tariff" })]);
    expect(ids(m.match(say("New TARIFFS weighed on the quarter.")))).toEqual(["r1"]);
    expect(ids(m.match(say("The tariff was lifted")))).toEqual(["r1"]);
    expect(m.match(say("Antitariff sentiment and traffic grew"))).toEqual([]);
  });

  it("matches a phrase only as consecutive words", () => {
    const m = new PhraseMatcher([rule("r1", { phrase: "supply chain" })]);
    expect(ids(m.match(say("Our supply-chains are healthy")))).toEqual(["r1"]);
    expect(m.match(say("Supply improved across the chain"))).toEqual([]);
    expect(m.match(say("the supply"))).toEqual([]);
  });

  it("fires each rule once per sentence even when the phrase repeats", () => {
    const m = new PhraseMatcher([rule("r1", { phrase: "tariff" })]);
    expect(m.match(say("tariffs, tariffs and more tariffs"))).toHaveLength(1);
  });

  it("honours ticker scope and speaker role", () => {
    const m = new PhraseMatcher([
      rule("all", { phrase: "margin" }),
      rule("nwsc", { phrase: "margin", tickers: new Set(["NWSC"]) }),
      rule("other", { phrase: "margin", tickers: new Set(["ACME"]) }),
      rule("op", { phrase: "margin", speakerRole: "operator" }),
      rule("exec", { phrase: "margin", speakerRole: "speaker" }),
    ]);
    expect(ids(m.match(say("Gross margin expanded", "nwsc", "SPEAKER_2")))).toEqual(["all", "exec", "nwsc"]);
    expect(ids(m.match(say("A question on margin", "ACME", "OPERATOR")))).toEqual(["all", "op", "other"]);
  });

  it("quotes the sentence's own words that matched each rule, each once", () => {
    const m = new PhraseMatcher([
      rule("t", { phrase: "tariff" }),
      rule("sc", { phrase: "supply chain" }),
      rule("both", { phrase: "tariff", userId: "u2" }),
    ]);
    const hits = m.match(say("New Tariffs hit our Supply-Chain; tariffs again."));
    const matched = Object.fromEntries(hits.map((h) => [h.rule.id, h.matched]));
    expect(matched).toEqual({
      t: ["Tariffs", "tariffs"],
      sc: ["Supply Chain"],
      both: ["Tariffs", "tariffs"],
    });
  });

  it("shares one entry between users with the same phrase", () => {
    const rules = Array.from({ length: 50 }, (_, i) => rule(`r${i}`, { userId: `u${i}`, phrase: "Tariffs" }));
    const m = new PhraseMatcher(rules);
    expect(m.phraseCount).toBe(1);
    expect(m.match(say("a tariff"))).toHaveLength(50);
  });

  it("leaves guidance rules to the evaluator's classifier: they have no phrases", () => {
    const m = new PhraseMatcher([rule("g", { kind: "guidance", tickers: new Set(["NWSC"]) })]);
    expect(m.match(say("We are raising our full-year guidance."))).toEqual([]);
    expect(m.phraseCount).toBe(0);
  });
});
