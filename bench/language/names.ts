/** Whether two spellings name the same person or the same firm, as the corpus and the calls spell them. */
const normName = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z\s-]/g, "")
    .replace(/\b(?:jr|sr|ii|iii|iv|dr|mr|mrs|ms|cfa)\b/g, "")
    .trim()
    .split(/[\s-]+/)
    .filter(Boolean);

const NICKNAMES = [
  ["robert", "bob", "rob", "bobby"],
  ["william", "bill", "will", "billy"],
  ["richard", "dick", "rick", "rich"],
  ["edward", "ted", "ed", "eddie"],
  ["margaret", "peggy", "meg"],
  ["elizabeth", "liz", "beth", "betsy"],
  ["charles", "chuck", "charlie"],
  ["james", "jim", "jimmy"],
  ["john", "jack"],
];
const sameGiven = (a: string, b: string) =>
  a[0] === b[0] || NICKNAMES.some((group) => group.includes(a) && group.includes(b));

/**
 * Same person: the same last name, and a given name that agrees — the same initial ("Chris" for "Christopher"), a
 * common nickname ("Bob" for "Robert"), or a middle name used as the first ("Kelly Wall" for "C. Kelly Wall").
 */
export function sameName(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const x = normName(a);
  const y = normName(b);
  if (x.length < 2 || y.length < 2) return false;
  if (x.at(-1) !== y.at(-1)) return false;
  const givenX = x.slice(0, -1);
  const givenY = y.slice(0, -1);
  return (
    givenX.some((g) => givenY.some((h) => g.length > 1 && h.length > 1 && sameGiven(g, h))) ||
    sameGiven(x[0]!, y[0]!)
  );
}

const FIRM_NOISE =
  /\b(?:securities|security|capital|markets?|inc|llc|lp|llp|ltd|limited|co|company|companies|corp|corporation|group|partners|research|financial|the|and|international|advisors|advisory|management|sa|ag|plc|bank|holdings|investments?|asset|llc|usa|us|equity|equities)\b/g;
const normFirm = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9\s]/g, "")
    .replace(FIRM_NOISE, " ")
    .replace(/\s+/g, "");

/** Names an operator uses for a firm that share nothing with its registered name. */
const FIRM_ALIASES = [
  ["bofa", "bankofamerica", "merrilllynch", "baml"],
  ["citi", "citigroup"],
  ["ms", "morganstanley"],
  ["gs", "goldmansachs", "goldman"],
  ["jpm", "jpmorgan", "jpmorganchase"],
  ["wells", "wellsfargo"],
];

const initials = (s: string) =>
  s
    .replace(/&/g, " ")
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length > 0 && !/^(?:and|of|the|inc|llc|co|company)$/i.test(w))
    .map((w) => w[0]!.toLowerCase())
    .join("");

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return d[b.length]!;
}

/**
 * The same firm, as an operator says it and as the participants list writes it: "J.P. Morgan" and "JPMorgan
 * Chase", "Evercore ISI" and "Evercore", "KBW" and "Keefe, Bruyette & Woods", "Baird" and "Robert W. Baird & Co.",
 * "BofA" and "Bank of America Merrill Lynch", a misspelling ("Jeferries").
 */
export function sameFirm(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const x = normFirm(a);
  const y = normFirm(b);
  if (!x || !y) return a.trim().toLowerCase() === b.trim().toLowerCase();
  if (x.includes(y) || y.includes(x) || x.slice(0, 6) === y.slice(0, 6)) return true;
  const short = a.replace(/[^A-Za-z]/g, "").toLowerCase();
  const long = b.replace(/[^A-Za-z]/g, "").toLowerCase();
  if (FIRM_ALIASES.some((g) => g.some((n) => short.startsWith(n)) && g.some((n) => long.startsWith(n))))
    return true;
  if (short.length <= 4 && (initials(b).startsWith(short) || initials(a) === long)) return true;
  if (long.length <= 4 && initials(a).startsWith(long)) return true;
  return x.length >= 6 && y.length >= 6 && editDistance(x.slice(0, 9), y.slice(0, 9)) <= 2;
}
