import { describe, expect, it } from "vitest";
import { Bm25Index, tokenize } from "./similarity";

describe("Bm25Index", () => {
  const index = new Bm25Index([
    "Revenue was $3.9 billion, up 10% year over year.",
    "Gross margin was 44.1%.",
    "We continue to see supply chain constraints easing.",
  ]);

  it("matches a sentence to last quarter's statement of the same figure, amounts aside", () => {
    const m = index.best("Revenue was $4.2 billion, up 12% year over year.");
    expect(m?.index).toBe(0);
    expect(m?.similarity).toBe(1);
  });

  it("scores unrelated sentences low or not at all", () => {
    const m = index.best("Our next question comes from Jane Doe.");
    expect(m === null || m.similarity < 0.3).toBe(true);
  });

  it("leaves out stop words and amounts", () => {
    expect(tokenize("We delivered $4.2 billion in revenues")).toEqual(["deliver", "billion", "revenue"]);
  });
});
