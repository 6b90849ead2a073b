import { describe, expect, it } from "vitest";
import { plainMessage } from "./plain-errors";

describe("plainMessage", () => {
  it("says the API's parameter errors in a form's words", () => {
    expect(plainMessage(new Error("webhookUrl must be an https URL"))).toBe(
      "The webhook address must start with https://.",
    );
    expect(plainMessage(new Error("phrase is required for a keyword rule"))).toBe(
      "Enter a word or phrase to listen for.",
    );
    expect(plainMessage(new Error("webhookUrl names a host that does not resolve (hooks.nowhere)"))).toBe(
      "No server answers to hooks.nowhere; check the webhook address.",
    );
    expect(plainMessage(new Error("at most 100 alert rules per user"))).toMatch(/100 rules/);
  });

  it("takes the parameter name off a message it has no wording for, and never shows nothing", () => {
    expect(plainMessage(new Error("position: must be at most 10000"))).toBe("Must be at most 10000.");
    expect(plainMessage(new Error("Could not reach the Callroom server. Check your connection."))).toBe(
      "Could not reach the Callroom server. Check your connection.",
    );
    expect(plainMessage(null)).toBe("Something went wrong. Try again.");
  });
});
