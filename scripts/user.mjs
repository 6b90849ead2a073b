#!/usr/bin/env node
// Manages dashboard users: `npm run user -- add NAME` (password from standard input; prompted without echo on a
// terminal, asked twice) and `npm run user -- remove NAME`. Users live in CALLROOM_USERS_FILE (default
// ./data/users) as `name:scrypt$N$r$p$salt$hash:id` lines (server/auth/users.ts; the hash is the format
// server/auth/password.ts verifies). `id` is the user's stable id, a random UUID given when the name is added and kept
// when its password changes: a name removed and added again is a new user, who starts empty. The file is rewritten
// atomically (temp file + rename) with mode 0600; the running server picks changes up within a second and revokes a
// removed user's calendar feed, push subscriptions and alert rules (docs/workspace.md, Users).
import { randomBytes, randomUUID, scrypt } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { importServerModule } from "./server-modules.mjs";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
for (const file of [".env.local", ".env"]) {
  if (existsSync(resolve(root, file))) process.loadEnvFile(resolve(root, file));
}
// The server's own reader (server/config.ts; docs/architecture.md "Configuration"): the file the server watches.
const { readConfig } = await importServerModule("server/config.ts");
let usersFile;
try {
  usersFile = readConfig(process.env).security.usersFile;
} catch (error) {
  console.error(`user: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const PARAMS = { N: 1 << 15, r: 8, p: 1, keyLength: 32 };
const MIN_PASSWORD = 8;

function fail(message, code = 1) {
  console.error(`user: ${message}`);
  process.exit(code);
}

function hash(password) {
  const salt = randomBytes(16);
  return new Promise((resolveHash, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      PARAMS.keyLength,
      { N: PARAMS.N, r: PARAMS.r, p: PARAMS.p, maxmem: 128 * PARAMS.N * PARAMS.r + 16 * 1024 * 1024 },
      (error, key) =>
        error
          ? reject(error)
          : resolveHash(
              [
                "scrypt",
                PARAMS.N,
                PARAMS.r,
                PARAMS.p,
                salt.toString("base64url"),
                key.toString("base64url"),
              ].join("$"),
            ),
    );
  });
}

/** One line typed on the terminal with echo off. */
function promptHidden(question) {
  return new Promise((resolveLine, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    let line = "";
    const onData = (chunk) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          process.stderr.write("\n");
          resolveLine(line);
          return;
        }
        if (ch === "\u0003") {
          stdin.setRawMode(false);
          process.stderr.write("\n");
          reject(new Error("cancelled"));
          return;
        }
        if (ch === "\u007f" || ch === "\b") line = line.slice(0, -1);
        else line += ch;
      }
    };
    stdin.on("data", onData);
  });
}

async function readPassword() {
  if (process.stdin.isTTY) {
    const first = await promptHidden("Password: ");
    const second = await promptHidden("Repeat password: ");
    if (first !== second) fail("the passwords differ");
    return first;
  }
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/)[0] ?? "";
}

function readLines() {
  return existsSync(usersFile)
    ? readFileSync(usersFile, "utf8")
        .split(/\r?\n/)
        .filter((l) => l !== "")
    : [];
}

function writeLines(lines) {
  mkdirSync(dirname(usersFile), { recursive: true, mode: 0o700 });
  const tmp = `${usersFile}.${process.pid}.tmp`;
  writeFileSync(tmp, lines.length ? `${lines.join("\n")}\n` : "", { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, usersFile);
}

const [command, name] = process.argv.slice(2);
if ((command !== "add" && command !== "remove") || !name) {
  fail("usage: npm run user -- add NAME | remove NAME (password from standard input)", 2);
}
if (!NAME.test(name))
  fail("a user name is 1–64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit", 2);

const others = readLines().filter((line) => !line.startsWith(`${name}:`));
if (command === "remove") {
  if (others.length === readLines().length) fail(`no user named ${name} in ${usersFile}`);
  writeLines(others);
  console.log(`removed ${name} from ${usersFile}`);
} else {
  const password = await readPassword().catch((error) => fail(error.message));
  if (password.length < MIN_PASSWORD) fail(`the password needs at least ${MIN_PASSWORD} characters`);
  if (password.length > 1024) fail("the password is longer than 1024 characters");
  const previous = readLines().find((line) => line.startsWith(`${name}:`));
  const existed = previous !== undefined;
  // A password change keeps the user's id (and a line written before ids existed keeps having none: its rows are
  // keyed by the name); a new name gets a new id.
  const [, , keptId] = (previous ?? "").split(":");
  const id = existed ? keptId : randomUUID();
  writeLines([...others, `${name}:${await hash(password)}${id ? `:${id}` : ""}`]);
  console.log(`${existed ? "updated" : "added"} ${name} in ${usersFile}`);
}
