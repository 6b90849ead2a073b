// @ts-check
// One owner per PGlite folder (docs/storage.md, "One process per PGlite folder"). PGlite is one process's
// database: two processes on one folder each keep their own copy of its pages in memory, and both write them back,
// which once left an archive with every call twice. The owner writes `callroom.lock` into the folder; another
// process that finds it held by a live process refuses to open the folder, and one left by a process that died
// (killed, crashed) is recognised and taken over.
//
// Plain JavaScript: the launcher (scripts/launch.mjs) checks the folder with it before starting anything, so a
// second `npm start` on a folder in use stops at once.
import {
  existsSync,
  linkSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";

export const LOCK_FILE = "callroom.lock";
/** The owner touches its lock this often; a lock from another host not touched for `STALE_MS` is abandoned. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;

/**
 * @typedef {{ pid: number, host: string, startedAt: string, procStart: string | null, purpose: string, token?: string }} Owner
 */

/** The kernel's start time of a process (Linux: /proc/PID/stat field 22), telling a reused pid from its first owner. */
function procStart(/** @type {number} */ pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function pidAlive(/** @type {number} */ pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/** @returns {Owner} */
function me(/** @type {string} */ purpose) {
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    procStart: procStart(process.pid),
    purpose,
    // Whoever can read this file (mode 0600: this machine's user of the folder) may import through the owner
    // (`npm run import`, app/api/archive/import): reading the folder is the proof.
    token: randomBytes(24).toString("hex"),
  };
}

/** @returns {{ owner: Owner | null, raw: string, mtimeMs: number } | null} */
function readLock(/** @type {string} */ file) {
  let raw;
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
    raw = readFileSync(file, "utf8");
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT") return null;
    throw error;
  }
  try {
    return { owner: JSON.parse(raw), raw, mtimeMs };
  } catch {
    // Half-written by an owner that died while writing it.
    return { owner: null, raw, mtimeMs };
  }
}

/** Whether the process that wrote `owner` still runs. Unknown (another host) counts as alive until its lock is stale. */
function ownerAlive(/** @type {Owner | null} */ owner, /** @type {number} */ mtimeMs) {
  if (!owner || typeof owner.pid !== "number") return false;
  if (owner.host !== hostname()) return Date.now() - mtimeMs < STALE_MS;
  if (!pidAlive(owner.pid)) return false;
  const now = procStart(owner.pid);
  return !(owner.procStart && now && owner.procStart !== now);
}

/**
 * Who holds the folder now: its live owner, or null (free, or left by a process that is gone).
 * @param {string} dataDir
 * @returns {Owner | null}
 */
export function folderOwner(dataDir) {
  const lock = readLock(path.join(path.resolve(dataDir), LOCK_FILE));
  if (!lock || !ownerAlive(lock.owner, lock.mtimeMs)) return null;
  return lock.owner;
}

export class FolderInUseError extends Error {
  /** @param {string} folder @param {Owner} owner */
  constructor(folder, owner) {
    super(folderInUseMessage(folder, owner));
    this.name = "FolderInUseError";
    this.code = "FOLDER_IN_USE";
    this.folder = folder;
    // Never the owner's token: errors end up in logs.
    const { token: _token, ...visible } = owner;
    this.owner = visible;
  }
}

/** The message a process refused a folder prints: which folder, who holds it, and what to do. */
export function folderInUseMessage(/** @type {string} */ folder, /** @type {Owner} */ owner) {
  const who = `process ${owner.pid}${owner.host === hostname() ? "" : ` on ${owner.host}`}${
    owner.purpose ? ` (${owner.purpose})` : ""
  }, started ${owner.startedAt}`;
  return [
    `The database folder ${folder} is in use by another Callroom ${who}.`,
    "PGlite is one process's database: a second process on the same folder would corrupt it, so this one stops.",
    "Stop the other process first, or give this one a folder of its own (CALLROOM_DATA_DIR=…), or run both on one",
    "PostgreSQL server (DATABASE_URL=postgres://…). To import transcripts into a running app, run `npm run import`",
    "with the app's PORT: it goes through the app.",
  ].join(" ");
}

/**
 * Takes the folder for this process, or throws `FolderInUseError`. A lock left by a process that is gone is taken
 * over. Returns the release (also run at exit).
 * @param {string} dataDir
 * @param {string} purpose
 * @returns {{ release(): void, token: string }}
 */
export function claimFolder(dataDir, purpose) {
  const folder = path.resolve(dataDir);
  const file = path.join(folder, LOCK_FILE);
  const owner = me(purpose);
  const mine = JSON.stringify(owner);
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(temp, mine, { mode: 0o600 });
  let owned = false;
  try {
    for (let attempt = 0; attempt < 5 && !owned; attempt += 1) {
      try {
        // link() creates the lock only if none exists: two processes starting together cannot both succeed.
        linkSync(temp, file);
        owned = true;
        break;
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
      }
      const lock = readLock(file);
      if (!lock) continue;
      if (lock.owner && ownerAlive(lock.owner, lock.mtimeMs)) throw new FolderInUseError(folder, lock.owner);
      // Left by a process that is gone: move it aside, and make sure what was moved is the lock judged stale (two
      // processes taking over at once: the later one would otherwise move the earlier one's new lock).
      const aside = `${file}.stale.${process.pid}`;
      try {
        renameSync(file, aside);
      } catch {
        continue;
      }
      const moved = readFileSync(aside, "utf8");
      if (moved !== lock.raw) {
        try {
          linkSync(aside, file);
        } catch {}
      }
      unlinkSync(aside);
    }
  } finally {
    try {
      unlinkSync(temp);
    } catch {}
  }
  if (!owned) throw new Error(`could not take the lock ${file}: it keeps changing`);
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {}
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.off("exit", release);
    try {
      if (existsSync(file) && readFileSync(file, "utf8") === mine) unlinkSync(file);
    } catch {}
  };
  process.on("exit", release);
  return { release, token: /** @type {string} */ (owner.token) };
}
