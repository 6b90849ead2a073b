import type { Alert } from "@/lib/schemas/alerts";

export interface QuotePart {
  text: string;
  isMatch: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The alert's sentence split into parts, the words its rules matched marked: "Tariffs" for the phrase "tariff", and
 * a phrase across punctuation ("Supply Chain" in "supply-chain"), since the matcher splits words the same way
 * (docs/workspace.md, Matching). Whole words only, case-insensitive.
 */
export function matchedParts(alert: Pick<Alert, "text" | "rules">): QuotePart[] {
  const phrases = [...new Set(alert.rules.flatMap((r) => r.matched).filter((m) => m.trim() !== ""))]
    // Longest first, so "supply chain" wins over "supply" where both matched.
    .sort((a, b) => b.length - a.length)
    .map((m) =>
      m
        .split(/[^\p{L}\p{N}'’]+/u)
        .filter(Boolean)
        .map(escape)
        .join("[^\\p{L}\\p{N}]+"),
    );
  if (phrases.length === 0) return [{ text: alert.text, isMatch: false }];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases.join("|")})(?![\\p{L}\\p{N}])`, "giu");
  const parts: QuotePart[] = [];
  let at = 0;
  for (const match of alert.text.matchAll(pattern)) {
    const start = match.index;
    if (start > at) parts.push({ text: alert.text.slice(at, start), isMatch: false });
    parts.push({ text: match[0], isMatch: true });
    at = start + match[0].length;
  }
  if (at < alert.text.length) parts.push({ text: alert.text.slice(at), isMatch: false });
  return parts;
}
