import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The shell (root layout, dashboard layout, header) is in every page's first-load JS, so whatever its client
 * components import statically is paid on every page; a page's own client components add theirs. zod alone is 30 kB
 * gzip, a sixth of the 180 kB budget (docs/day.md, Measured): no page's client code imports it statically (the
 * browser reads our API's answers as typed JSON; a schema it needs is imported once the page is up).
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SHELL = ["app/layout.tsx", "app/(dashboard)/layout.tsx"];
const PAGES = [
  "app/(dashboard)/page.tsx",
  "app/(dashboard)/live/page.tsx",
  "app/(dashboard)/calls/page.tsx",
  "app/(dashboard)/calls/[callId]/page.tsx",
  "app/(dashboard)/calendar/earnings/page.tsx",
  "app/(dashboard)/calendar/ma/page.tsx",
  "app/(dashboard)/search/page.tsx",
  "app/(dashboard)/alerts/page.tsx",
  "app/(dashboard)/watchlists/page.tsx",
  "app/(dashboard)/companies/[symbol]/page.tsx",
  "app/(dashboard)/compare/page.tsx",
  "app/login/page.tsx",
];

/** Static value imports and re-exports of a module (`import type` and `import()` ship nothing at load). */
function staticImports(source: string): string[] {
  const out: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;]*?\bfrom\s+)?["']([^"']+)["']/gm;
  for (const m of source.matchAll(statement)) {
    if (m[2]) continue;
    // `import { type A, type B } from` ships nothing either.
    const named = /^\{([^}]*)\}\s*from\s+$/.exec(m[3] ?? "")?.[1];
    const names =
      named
        ?.split(",")
        .map((n) => n.trim())
        .filter(Boolean) ?? [];
    if (names.length > 0 && names.every((n) => n.startsWith("type "))) continue;
    if (m[4]) out.push(m[4]);
  }
  return out;
}

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith("@/")
    ? join(root, spec.slice(2))
    : spec.startsWith(".")
      ? resolve(dirname(from), spec)
      : null;
  if (!base) return null;
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ])
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  return null;
}

/** Every package a client module reached from these entries imports statically, with the chain that reaches it. */
function clientPackages(entries: readonly string[]): Map<string, string[]> {
  return clientGraph(entries).packages;
}

/** What client code reached from these entries imports statically: packages, and our own modules. */
function clientGraph(entries: readonly string[]) {
  const packages = new Map<string, string[]>();
  const files = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, client: boolean, chain: string[]) => {
    const key = `${file}|${client}`;
    if (seen.has(key)) return;
    seen.add(key);
    const source = readFileSync(file, "utf8");
    const isClient = client || /^\s*["']use client["']/.test(source);
    const here = [...chain, relative(root, file)];
    if (isClient && !files.has(relative(root, file))) files.set(relative(root, file), here);
    for (const spec of staticImports(source)) {
      const local = resolveLocal(file, spec);
      if (local) visit(local, isClient, here);
      else if (isClient && !spec.startsWith(".") && !spec.startsWith("@/")) {
        const name = spec
          .split("/")
          .slice(0, spec.startsWith("@") ? 2 : 1)
          .join("/");
        if (!packages.has(name)) packages.set(name, here);
      }
    }
  };
  for (const entry of entries) visit(join(root, entry), false, []);
  return { packages, files };
}

/**
 * Loaded once the page is up, never with it (docs/performance.md, First-load JS): the insights engine and the
 * vocabularies it extracts figures with (about 34 kB gzip on /live and the call room), the alert toasts, the charts'
 * drawing, the watchlist page's calendars.
 */
const LATER = [
  "lib/insights/engine.ts",
  "lib/insights/figures.ts",
  "lib/insights/metrics.ts",
  "components/alerts/alert-toasts.tsx",
  "components/charts/line-chart.tsx",
  "components/charts/bar-chart.tsx",
  "components/watchlists/watchlist-calendars.tsx",
];

describe("first-load imports", () => {
  it("reach no zod from any client component of the layouts and header", () => {
    const packages = clientPackages(SHELL);
    // The walk does find the shell's client code (react-query is the bell's), so an empty answer proves nothing.
    expect(packages.has("@tanstack/react-query")).toBe(true);
    expect(packages.get("zod") ?? null).toBeNull();
  });

  it.each(PAGES)("reach no zod from the client components of %s", (page) => {
    expect(existsSync(join(root, page))).toBe(true);
    expect(clientPackages([page]).get("zod") ?? null).toBeNull();
  });

  it.each(PAGES)("load the insights engine, the toasts and the charts' drawing later on %s", (page) => {
    const { files } = clientGraph([...SHELL, page]);
    // The walk reaches the page's own client code (the header at least), so an empty answer proves nothing.
    expect(files.has("components/shell/site-header.tsx")).toBe(true);
    expect(LATER.flatMap((f) => (files.has(f) ? [files.get(f)!.join(" → ")] : []))).toEqual([]);
  });

  it("tells a type-only import from a value import", () => {
    expect(staticImports('import type { Alert } from "@/lib/schemas/alerts";')).toEqual([]);
    expect(staticImports('import { type Alert } from "@/lib/schemas/alerts";')).toEqual([]);
    expect(staticImports('import { alertSchema, type Alert } from "@/lib/schemas/alerts";')).toEqual([
      "@/lib/schemas/alerts",
    ]);
    expect(staticImports('const m = await import("@/lib/schemas/alerts");')).toEqual([]);
  });
});
