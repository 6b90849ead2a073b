/** The end of the call: the CEO's closing words after the Q&A, then the operator's close. */
import type { CallContext } from "../context";
import type { Line } from "../types";

/** The handover back to the CEO and the CEO's thanks (the handover only after a Q&A). */
export function closingLines({ ceo, tone }: CallContext): Line[] {
  return [
    {
      role: "operator",
      text: `There are no further questions at this time. I'll turn the call back over to ${ceo.name} for closing remarks.`,
      section: "close",
    },
    {
      role: "ceo",
      text:
        tone === "beat"
          ? "Thank you all for joining us. We are proud of this quarter and excited about the opportunities ahead."
          : tone === "miss"
            ? "Thank you for joining us. We know we have work to do, and we look forward to showing you progress next quarter."
            : "Thank you for joining us today. We look forward to updating you on our progress next quarter.",
      section: "close",
    },
  ];
}

/** The operator's last words: where a call ended early skips to. */
export const FINAL_LINES: readonly Line[] = [
  {
    role: "operator",
    text: "This concludes today's conference call. Thank you for participating. You may now disconnect.",
    section: "close",
    keep: true,
  },
];
