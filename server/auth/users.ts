import "server-only";
import { readFileSync, statSync } from "node:fs";
import { getLogger } from "../log";

/**
 * The users file (`CALLROOM_USERS_FILE`, default `./data/users`): one `name:scrypt$N$r$p$salt$hash` per line, `#`
 * comments and blank lines ignored, managed by `npm run user -- add|remove NAME`. It is re-read when its mtime or
 * size changes (checked at most once a second), so adding or removing a user needs no restart and a removed user's
 * sessions stop working at once.
 */

export const USER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function parseUsersFile(text: string): Map<string, string> {
  const users = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    const hash = line.slice(colon + 1);
    if (!USER_NAME_PATTERN.test(name) || !hash.startsWith("scrypt$")) continue;
    users.set(name, hash);
  }
  return users;
}

interface CacheEntry {
  checkedAt: number;
  signature: string;
  users: Map<string, string>;
}

const cache = new Map<string, CacheEntry>();
const RECHECK_MS = 1000;

/** Users in the file; an absent file means no users (loopback use stays open). */
export function readUsers(path: string, now = Date.now()): Map<string, string> {
  const entry = cache.get(path);
  if (entry && now - entry.checkedAt < RECHECK_MS) return entry.users;
  let signature = "absent";
  try {
    const st = statSync(path);
    signature = `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    // Missing file: no users.
  }
  if (entry && entry.signature === signature) {
    entry.checkedAt = now;
    return entry.users;
  }
  let users = new Map<string, string>();
  if (signature !== "absent") {
    try {
      users = parseUsersFile(readFileSync(path, "utf8"));
    } catch (error) {
      // Unreadable but present: keep the previous list rather than silently opening the server.
      getLogger().error({ err: error }, "auth: users file unreadable");
      users = entry?.users ?? new Map([["\u0000unreadable", "scrypt$invalid"]]);
    }
  }
  cache.set(path, { checkedAt: now, signature, users });
  return users;
}

export function clearUsersCache(): void {
  cache.clear();
}
