import { describe, expect, it } from "vitest";
import { isGuidanceStatement } from "./guidance";

const said = (text: string) => isGuidanceStatement({ text, role: "management" });

describe("isGuidanceStatement (sentences written here)", () => {
  it("is not guidance when the outlook is only announced, expected of the listener, or someone else's", () => {
    expect(said("I'll cover the quarter and close with our outlook for next year.")).toBe(false);
    expect(said("Later in the call, Dana will walk through our outlook.")).toBe(false);
    expect(said("Volumes came in as you would expect for the season.")).toBe(false);
    expect(said("Our plans follow the updated guidance from the health authorities.")).toBe(false);
    expect(said("Costs came in below the low end of our range of expectations.")).toBe(false);
  });

  it("is guidance when management states or affirms its outlook", () => {
    expect(said("Given the momentum, we remain confident in our full-year guidance range.")).toBe(true);
    expect(said("We now expect revenue growth of about 8% for the year.")).toBe(true);
  });

  it("is not guidance when the forecast is someone else's or has no result of the company in view", () => {
    expect(said("Consultants at Brightline forecast 6% growth in industry spending for next year.")).toBe(
      false,
    );
    expect(said("We expect to complete two more bolt-on acquisitions for the distribution arm.")).toBe(false);
  });

  it("is guidance when the company forecasts by name, passively or as the object", () => {
    expect(said("Revenue for the full year is now expected to land near the top of the range.")).toBe(true);
    expect(said("Northwind now expects adjusted EPS growth in the high single digits.")).toBe(true);
    expect(said("These savings are expected to allow us to expand operating margin next year.")).toBe(true);
  });
});
