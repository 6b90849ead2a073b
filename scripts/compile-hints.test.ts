import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMPILE_HINT, addCompileHints, firstLoadScripts } from "./compile-hints";

let dist: string;

async function put(path: string, text: string) {
  await mkdir(dirname(join(dist, path)), { recursive: true });
  await writeFile(join(dist, path), text);
}

function clientManifest(route: string, manifest: object): string {
  return (
    "globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\n" +
    `globalThis.__RSC_MANIFEST[${JSON.stringify(route)}] = ${JSON.stringify(manifest)};\n`
  );
}

/** A dist dir shaped like Next 16's Turbopack output, reduced to what the step reads. */
beforeEach(async () => {
  dist = await mkdtemp(join(tmpdir(), "compile-hints-"));
  await put(
    "build-manifest.json",
    JSON.stringify({
      polyfillFiles: ["static/chunks/polyfill.js"],
      rootMainFiles: ["static/chunks/framework.js", "static/chunks/turbopack-runtime.js"],
    }),
  );
  await put(
    "server/app/(dashboard)/calls/page_client-reference-manifest.js",
    clientManifest("/(dashboard)/calls/page", {
      clientModules: {
        "[project]/components/calls/calls-browser.tsx": { chunks: ["/_next/static/chunks/calls.js"] },
      },
      entryJSFiles: { "[project]/app/layout": ["static/chunks/layout.js"] },
    }),
  );
  await put(
    "server/app/api/health/route_client-reference-manifest.js",
    clientManifest("/api/health/route", { clientModules: {}, entryJSFiles: {} }),
  );
  for (const file of ["framework", "turbopack-runtime", "calls", "layout", "polyfill", "hls-lazy"]) {
    await put(`static/chunks/${file}.js`, `(globalThis.TURBOPACK||[]).push(["${file}"]);`);
  }
});

afterEach(async () => {
  await rm(dist, { recursive: true, force: true });
});

describe("first-load scripts", () => {
  it("are the root chunks and every route's entry and client-component chunks", async () => {
    expect(await firstLoadScripts(dist)).toEqual([
      "static/chunks/calls.js",
      "static/chunks/framework.js",
      "static/chunks/layout.js",
      "static/chunks/turbopack-runtime.js",
    ]);
  });

  it("leave out noModule polyfills even when a route lists them", async () => {
    await put(
      "server/app/x/page_client-reference-manifest.js",
      clientManifest("/x/page", { entryJSFiles: { a: ["static/chunks/polyfill.js"] } }),
    );
    expect(await firstLoadScripts(dist)).not.toContain("static/chunks/polyfill.js");
  });
});

describe("addCompileHints", () => {
  it("prepends the hint to first-load chunks only, keeping their code", async () => {
    const changed = await addCompileHints(dist);
    expect(changed).toHaveLength(4);
    const framework = await readFile(join(dist, "static/chunks/framework.js"), "utf8");
    expect(framework).toBe(`${COMPILE_HINT}(globalThis.TURBOPACK||[]).push(["framework"]);`);
    // On-demand chunks stay lazily compiled.
    expect(await readFile(join(dist, "static/chunks/hls-lazy.js"), "utf8")).not.toContain(
      "allFunctionsCalledOnLoad",
    );
    expect(await readFile(join(dist, "static/chunks/polyfill.js"), "utf8")).not.toContain(
      "allFunctionsCalledOnLoad",
    );
  });

  it("is idempotent", async () => {
    await addCompileHints(dist);
    expect(await addCompileHints(dist)).toEqual([]);
    const layout = await readFile(join(dist, "static/chunks/layout.js"), "utf8");
    expect(layout.split("allFunctionsCalledOnLoad")).toHaveLength(2);
  });

  it("never writes outside the dist dir, whatever a manifest says", async () => {
    await put(
      "server/app/y/page_client-reference-manifest.js",
      clientManifest("/y/page", { entryJSFiles: { a: ["static/../../outside.js"] } }),
    );
    const outside = join(dist, "..", "outside.js");
    await writeFile(outside, "original");
    try {
      await addCompileHints(dist);
      expect(await readFile(outside, "utf8")).toBe("original");
    } finally {
      await rm(outside, { force: true });
    }
  });

  it("skips a listed chunk that is missing instead of failing the build", async () => {
    await rm(join(dist, "static/chunks/calls.js"));
    await expect(addCompileHints(dist)).resolves.toHaveLength(3);
  });
});
