/** A quarter's ordinal as said on a call ("third", "3rd") to its number. */
export const QUARTER_ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  "1st": 1,
  "2nd": 2,
  "3rd": 3,
  "4th": 4,
};
