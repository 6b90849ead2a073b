/** Security identifiers with their real check-digit algorithms, so client-side validators accept them. */

const charValue = (ch: string): number => {
  if (ch >= "0" && ch <= "9") return ch.charCodeAt(0) - 48;
  if (ch >= "A" && ch <= "Z") return ch.charCodeAt(0) - 55;
  if (ch === "*") return 36;
  if (ch === "@") return 37;
  if (ch === "#") return 38;
  throw new Error(`invalid identifier character ${ch}`);
};

/** CUSIP check digit over the first 8 characters (modulus 10 "double-add-double"). */
export function cusipCheckDigit(base8: string): string {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    let v = charValue(base8.charAt(i));
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return String((10 - (sum % 10)) % 10);
}

/** ISIN check digit over the first 11 characters (letters expanded to two digits, then Luhn). */
export function isinCheckDigit(base11: string): string {
  const digits = [...base11].map((ch) => String(charValue(ch))).join("");
  let sum = 0;
  // Luhn from the rightmost digit, doubling every other one starting with it (the check digit is appended after).
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let v = digits.charCodeAt(i) - 48;
    if (double) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
  }
  return String((10 - (sum % 10)) % 10);
}

const SEDOL_WEIGHTS = [1, 3, 1, 7, 3, 9];

/** SEDOL check digit over 6 characters (no vowels allowed in real SEDOLs). */
export function sedolCheckDigit(base6: string): string {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += charValue(base6.charAt(i)) * (SEDOL_WEIGHTS[i] ?? 0);
  return String((10 - (sum % 10)) % 10);
}

export const isValidCusip = (cusip: string) =>
  /^[0-9A-Z*@#]{9}$/.test(cusip) && cusipCheckDigit(cusip.slice(0, 8)) === cusip.charAt(8);
export const isValidIsin = (isin: string) =>
  /^[A-Z]{2}[0-9A-Z]{9}[0-9]$/.test(isin) && isinCheckDigit(isin.slice(0, 11)) === isin.charAt(11);
export const isValidSedol = (sedol: string) =>
  /^[0-9BCDFGHJKLMNPQRSTVWXYZ]{6}[0-9]$/.test(sedol) &&
  sedolCheckDigit(sedol.slice(0, 6)) === sedol.charAt(6);
