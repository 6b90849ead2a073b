#!/usr/bin/env node
// Starts Callroom: `node scripts/launch.mjs start|dev`.
//
// Without UPSTREAM_BASE_URL it first starts the embedded market-data service as a child process (key `demo`),
// so a fresh clone works offline. `start` builds first when there is no build or the sources are newer than it.
// Children are started with `node` directly (never through npx) so that stopping this process stops them too.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { folderInUseMessage, folderOwner } from "../server/db/folder-owner.mjs";
import { importServerModule } from "./server-modules.mjs";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const mode = process.argv[2];
if (mode !== "start" && mode !== "dev") {
  console.error("usage: node scripts/launch.mjs start|dev");
  process.exit(2);
}

for (const file of [".env.local", ".env"]) {
  // Does not override variables already set, so the shell wins over the files.
  if (existsSync(join(root, file))) process.loadEnvFile(join(root, file));
}

// The configuration, read with the server's own reader (server/config.ts): a value it cannot use stops here, with the
// variable's name, rather than in the server. From the repository's root, as the server resolves its paths. This is
// the launcher's one read of the environment (docs/architecture.md "Configuration"); its children inherit it.
process.chdir(root);
const { readConfig } = await importServerModule("server/config.ts");
const { parseUsersFile } = await importServerModule("server/auth/users.ts");
let config;
try {
  config = readConfig(process.env);
} catch (error) {
  console.error(`[callroom] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

// Access control (issue 6): beyond loopback, the dashboard refuses to start without users and a session secret, and
// users need a secret wherever they are.
{
  const { usersFile, exposed, sessionSecret } = config.security;
  const userCount = existsSync(usersFile) ? parseUsersFile(readFileSync(usersFile, "utf8")).size : 0;
  const problems = [];
  if (exposed && userCount === 0)
    problems.push(`no users in ${usersFile} (add one: npm run user -- add NAME)`);
  if ((exposed || userCount > 0) && !sessionSecret) {
    problems.push(
      "CALLROOM_SESSION_SECRET is not set to at least 32 characters (e.g. `openssl rand -base64 32`)",
    );
  }
  if (problems.length > 0) {
    console.error(
      `[callroom] refusing to start on HOST=${config.server.host}${exposed ? " (reachable beyond this machine)" : ""}: ${problems.join("; ")}.`,
    );
    process.exit(1);
  }
}

// One process per PGlite folder (docs/storage.md): a second launch on a folder in use stops here, before it starts
// an embedded service or a build, with the folder and what to do. The server claims the folder itself when it opens
// the database; this only makes the refusal immediate and plain.
if (!config.database.url) {
  const dataDir = resolve(root, config.database.dataDir);
  const owner = folderOwner(dataDir);
  if (owner) {
    console.error(`[callroom] refusing to start: ${folderInUseMessage(dataDir, owner)}`);
    process.exit(1);
  }
}

const nextBin = join(root, "node_modules/next/dist/bin/next");
// Next behind a plain node:http server: the client's address and the live stream's door (scripts/serve.mjs).
const serveScript = join(root, "scripts/serve.mjs");
const distDir = config.server.distDir;
const port = String(config.server.port);
const host = config.server.host;
const children = new Set();
let stopping = false;

function log(message) {
  console.log(`[callroom] ${message}`);
}

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  const force = setTimeout(() => {
    for (const child of children) child.kill("SIGKILL");
    process.exit(code);
  }, 5000);
  force.unref();
  const check = setInterval(() => {
    if ([...children].every((c) => c.exitCode !== null || c.signalCode !== null)) {
      clearInterval(check);
      process.exit(code);
    }
  }, 50);
}

process.on("SIGINT", () => stopAll(130));
process.on("SIGTERM", () => stopAll(143));

function track(child, name) {
  children.add(child);
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (!stopping) {
      log(`${name} exited (${signal ?? code}); stopping`);
      stopAll(code ?? 1);
    }
  });
  return child;
}

/** Starts the embedded service and resolves with the URL it prints once listening. */
function startEmbedded() {
  return new Promise((resolveUrl, reject) => {
    const child = track(
      // Heap flags: embedded/main.ts says why (the service's memory target is 300 MB).
      spawn(
        process.execPath,
        [
          "--max-old-space-size=512",
          "--max-semi-space-size=8",
          "--import",
          "tsx",
          join(root, "embedded/main.ts"),
        ],
        // The environment is inherited: the service reads its own variables (embedded/config.ts; port 4010 by default).
        { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
      ),
      "embedded market-data service",
    );
    let buffered = "";
    const timer = setTimeout(
      () => reject(new Error("the embedded service did not start within 30 s")),
      30_000,
    );
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      buffered += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.on("exit", () => {
      clearTimeout(timer);
      reject(new Error("the embedded service exited before it was ready (is EMBEDDED_PORT in use?)"));
    });
  });
}

function newestSourceMtime() {
  // common/ too: the app imports it (the Eastern-time conversion, the sentiment lexicon).
  const inputs = ["app", "components", "lib", "server", "common", "public", "instrumentation.ts"];
  inputs.push("next.config.ts", "package.json", "postcss.config.mjs", "tsconfig.json");
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry === "node_modules" || entry.startsWith(".")) continue;
        visit(join(path, entry));
      }
    } else if (!/\.test\.tsx?$/.test(path)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const input of inputs) visit(join(root, input));
  return newest;
}

function buildIfStale() {
  const buildId = join(root, distDir, "BUILD_ID");
  if (existsSync(buildId) && statSync(buildId).mtimeMs >= newestSourceMtime()) return;
  log(existsSync(buildId) ? "sources changed since the last build; building" : "no build yet; building");
  // `next build` with another NEXT_DIST_DIR (the benchmarks' .next-bench, the scale tests') adds that folder's types
  // to tsconfig.json's include: put the file back as it was, so building never leaves the working tree changed.
  const tsconfig = join(root, "tsconfig.json");
  const tsconfigBefore = existsSync(tsconfig) ? readFileSync(tsconfig, "utf8") : null;
  const tsconfigTimes = tsconfigBefore === null ? null : statSync(tsconfig);
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit" });
  if (tsconfigBefore !== null && tsconfigTimes && readFileSync(tsconfig, "utf8") !== tsconfigBefore) {
    writeFileSync(tsconfig, tsconfigBefore);
    // Its old times too: a newer tsconfig.json would make the next start build again (newestSourceMtime).
    utimesSync(tsconfig, tsconfigTimes.atime, tsconfigTimes.mtime);
  }
  if (result.status !== 0) {
    log("build failed");
    process.exit(result.status ?? 1);
  }
}

try {
  // What the server's environment gains over the launcher's: the embedded service's address and key when there is no
  // upstream, the mode, the address it listens on (also given to scripts/serve.mjs as arguments).
  const serverEnv = { PORT: port, HOST: host, NODE_ENV: mode === "start" ? "production" : "development" };
  if (!config.upstream.configured) {
    const url = await startEmbedded();
    Object.assign(serverEnv, {
      UPSTREAM_BASE_URL: url,
      UPSTREAM_WS_URL: url.replace(/^http/, "ws"),
      UPSTREAM_API_KEY: "demo",
      UPSTREAM_MODE: "embedded",
    });
    log(`using the embedded market-data service at ${url} (demo data)`);
  } else {
    const { baseUrl, problem } = config.upstream;
    // The server still serves pages without it (every market-data request answers 503); say why here.
    log(baseUrl ? `using the market-data service at ${new URL(baseUrl).origin}` : `${problem}`);
  }
  if (mode === "start") buildIfStale();
  track(
    spawn(process.execPath, [serveScript, mode, "--host", host, "--port", port], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ...serverEnv },
    }),
    "next",
  );
  log(`dashboard on http://${host === "127.0.0.1" ? "localhost" : host}:${port}`);
} catch (error) {
  console.error(`[callroom] ${error instanceof Error ? error.message : String(error)}`);
  stopAll(1);
}
