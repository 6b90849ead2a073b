import "server-only";

export type Coding = "br" | "gzip" | "identity";

/**
 * The coding to answer with, from `Accept-Encoding`: brotli when accepted (smaller for JSON), then gzip, else none.
 * A coding with `q=0` is refused, and `*` stands for any coding not named.
 */
export function negotiateCoding(header: string | undefined): Coding {
  if (!header) return "identity";
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    weights.set(name, q);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get("*") ?? 0) > 0;
  if (accepts("br")) return "br";
  if (accepts("gzip")) return "gzip";
  return "identity";
}
