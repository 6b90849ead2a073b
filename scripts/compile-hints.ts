/**
 * Explicit compile hints for the JavaScript every page runs while it loads.
 *
 * Why: a browser compiles a script's functions lazily, on the main thread, the first time each is called. For our
 * first-load chunks nearly every module factory and most of React run during start-up and hydration, so that
 * lazy compilation lands in the page's longest tasks: on a phone-class CPU it was most of the ~200 ms task that
 * instantiates the client modules, and most of the Total Blocking Time Lighthouse measured (docs/performance.md).
 * A script that starts with the magic comment `//# allFunctionsCalledOnLoad` is compiled eagerly instead, while it
 * streams in, on a background thread (V8 12.6+, Chrome 126+; https://v8.dev/blog/explicit-compile-hints). Other
 * engines read it as an ordinary comment.
 *
 * Which files: only the chunks a page loads before it is interactive (the framework's root chunks and every
 * route's entry and client-component chunks, as the build's own manifests list them). Chunks loaded on demand
 * (hls.js, the sentiment chart) are left lazy: eager compilation of code that may never run only costs memory.
 * The price is that bytecode for the framework's unused functions is kept until V8 flushes it; measured figures
 * are in docs/performance.md.
 *
 * Runs from next.config.ts's `compiler.runAfterProductionCompile`, so every production build (npm start, tests,
 * CI, benchmarks) gets it. Idempotent.
 */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { runInNewContext } from "node:vm";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

interface BuildManifest {
  rootMainFiles?: string[];
  polyfillFiles?: string[];
}

interface ClientReferenceManifest {
  clientModules?: Record<string, { chunks?: string[] }>;
  entryJSFiles?: Record<string, string[]>;
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * A client reference manifest is a script that assigns to `globalThis.__RSC_MANIFEST`; it is our own build's
 * output, evaluated in an empty context that can reach nothing else.
 */
function readClientReferenceManifests(code: string): ClientReferenceManifest[] {
  const sandbox: { globalThis?: unknown; __RSC_MANIFEST?: Record<string, ClientReferenceManifest> } = {};
  sandbox.globalThis = sandbox;
  runInNewContext(code, sandbox, { timeout: 1_000 });
  return Object.values(sandbox.__RSC_MANIFEST ?? {});
}

/** `/_next/static/chunks/a.js` or `static/chunks/a.js` → `static/chunks/a.js`. */
function distRelative(file: string): string {
  return file.replace(/^\/?_next\//, "").replace(/^\//, "");
}

/** The JavaScript files, relative to the dist dir, that some page loads before it is interactive. */
export async function firstLoadScripts(distDir: string): Promise<string[]> {
  const files = new Set<string>();
  const build = JSON.parse(await readFile(join(distDir, "build-manifest.json"), "utf8")) as BuildManifest;
  for (const file of build.rootMainFiles ?? []) files.add(distRelative(file));
  for await (const path of walk(join(distDir, "server", "app"))) {
    if (!path.endsWith("_client-reference-manifest.js")) continue;
    for (const manifest of readClientReferenceManifests(await readFile(path, "utf8"))) {
      for (const chunks of Object.values(manifest.entryJSFiles ?? {})) {
        for (const file of chunks) files.add(distRelative(file));
      }
      for (const reference of Object.values(manifest.clientModules ?? {})) {
        for (const file of reference.chunks ?? []) files.add(distRelative(file));
      }
    }
  }
  // Polyfills are `noModule`: the browsers that honour the hint never fetch them.
  for (const file of build.polyfillFiles ?? []) files.delete(distRelative(file));
  return [...files].filter((file) => file.startsWith("static/") && file.endsWith(".js")).sort();
}

/** Prepends the hint to every first-load script that lacks it; returns the files changed. */
export async function addCompileHints(distDir: string): Promise<string[]> {
  const root = resolve(distDir);
  const changed: string[] = [];
  for (const file of await firstLoadScripts(root)) {
    const path = resolve(root, file);
    // Manifest entries are build output, but a path that leaves the dist dir is never written.
    if (!path.startsWith(root + sep)) continue;
    let code: string;
    try {
      code = await readFile(path, "utf8");
    } catch {
      continue;
    }
    if (code.startsWith(COMPILE_HINT)) continue;
    await writeFile(path, COMPILE_HINT + code);
    changed.push(file);
  }
  return changed;
}
