import { expect, test } from "@playwright/test";

/**
 * The production build marks the scripts a page runs while loading for eager, off-main-thread compilation
 * (scripts/compile-hints.ts, run by next.config.ts after every build). Losing the hook would still render every
 * page, only slower to become interactive, so this checks the build that is actually served.
 */
test("every script a page loads at start-up carries the compile hint", async ({ request }) => {
  for (const path of ["/calls", "/calendar/earnings"]) {
    const html = await (await request.get(path)).text();
    const scripts = new Set<string>();
    for (const tag of html.matchAll(/<script\b[^>]*\bsrc="(\/_next\/static\/[^"]+\.js)"[^>]*>/g)) {
      if (!/\bnomodule\b/i.test(tag[0])) scripts.add(tag[1]!);
    }
    expect(scripts.size, `scripts of ${path}`).toBeGreaterThan(2);
    for (const src of scripts) {
      const code = await (await request.get(src)).text();
      expect(code.startsWith("//# allFunctionsCalledOnLoad\n"), `${src} on ${path}`).toBe(true);
    }
  }
});
