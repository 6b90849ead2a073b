import { describe, expect, it } from "vitest";
import { buildParticipants } from "./participants";
import { BEAT_CALL } from "../../test/fixtures/calls";
import type { EnrichmentSegment, EnrichmentSpeaker } from "./types";

const segment = (sequence: number, speakerLabel: string, text: string): EnrichmentSegment => ({
  sequence,
  speakerLabel,
  text,
  startMs: sequence * 1000,
  endMs: sequence * 1000 + 900,
});

describe("buildParticipants", () => {
  it("orders operator, executives, analysts and keeps role, title and organization as given", () => {
    const participants = buildParticipants(BEAT_CALL);
    expect(participants.map((p) => p.name)).toEqual([
      "Operator",
      "Marcus Lee",
      "Dana Whitfield",
      "Priya Raman",
    ]);
    expect(participants[1]).toMatchObject({
      role: "Executive",
      title: "Chief Financial Officer",
      organization: "Northwind Semiconductor",
    });
    expect(participants[3]).toMatchObject({ role: "Analyst", organization: "Halvorsen Capital" });
  });

  it("counts segments spoken plus full-name and surname mentions by others", () => {
    const speakers: EnrichmentSpeaker[] = [
      { label: "OPERATOR", name: "Operator", role: "Operator", title: "Operator", organization: "Acme" },
      { label: "SPEAKER_1", name: "Dana Whitfield", role: "Executive", title: "CEO", organization: "Acme" },
      {
        label: "SPEAKER_2",
        name: "Sam Price",
        role: "Analyst",
        title: "Analyst",
        organization: "Birch Securities",
      },
    ];
    const segments = [
      segment(0, "OPERATOR", "I will now turn the call over to Dana Whitfield."),
      segment(1, "SPEAKER_1", "Thank you. Pricing held up and price increases stuck."),
      segment(2, "OPERATOR", "Our first question comes from Sam Price with Birch Securities."),
      segment(3, "SPEAKER_2", "As Whitfield said, demand is strong. Dana, what about supply?"),
      segment(4, "SPEAKER_1", "Good question, Sam. Mr. Price, supply is fine."),
    ];
    const byName = new Map(buildParticipants({ speakers, segments }).map((p) => [p.name, p.mentions]));
    // Whitfield: 2 segments + full name once + surname once ("Dana" alone does not count).
    expect(byName.get("Dana Whitfield")).toBe(4);
    // Price: 1 segment + full name once + "Mr. Price" once; lower-case "price"/"Pricing" are not the surname.
    expect(byName.get("Sam Price")).toBe(3);
    // Operator: 2 segments; its name is never said.
    expect(byName.get("Operator")).toBe(2);
  });

  it("does not count a shared surname, which would be ambiguous", () => {
    const speakers: EnrichmentSpeaker[] = [
      { label: "SPEAKER_1", name: "Ana Lee", role: "Executive", title: "CEO", organization: "Acme" },
      { label: "SPEAKER_2", name: "Marcus Lee", role: "Executive", title: "CFO", organization: "Acme" },
    ];
    const segments = [
      segment(0, "SPEAKER_1", "Lee will cover the numbers."),
      segment(1, "SPEAKER_2", "Thanks, Ana Lee."),
    ];
    const byName = new Map(buildParticipants({ speakers, segments }).map((p) => [p.name, p.mentions]));
    expect(byName.get("Ana Lee")).toBe(2);
    expect(byName.get("Marcus Lee")).toBe(1);
  });
});
