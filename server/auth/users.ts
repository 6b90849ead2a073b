import "server-only";
import { readFileSync, statSync } from "node:fs";
import { getLogger, type StructuredLog } from "../log";

/**
 * The users file (`CALLROOM_USERS_FILE`, default `./data/users`): one `name:scrypt$N$r$p$salt$hash:id` per line, `#`
 * comments and blank lines ignored, managed by `npm run user -- add|remove NAME`. It is re-read when its mtime or
 * size changes (checked at most once a second), so adding or removing a user needs no restart and a removed user's
 * sessions stop working at once.
 *
 * `id` is the user's stable id (a random UUID the script writes when it adds the name, and keeps when it changes the
 * password): the workspace's rows are keyed by it (`key`), so a name removed and added again, or a user named
 * `local` (the open instance's owner), is a new user who starts empty (docs/workspace.md, Users). A line written
 * before ids existed (`name:hash`) is keyed `user:<name>`, which the migration gave that user's existing rows.
 */

export const USER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
export const USER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface UserEntry {
  hash: string;
  /** What the user's rows are keyed by: the line's id, or `user:<name>` for a line without one. */
  key: string;
}

/** The key a user's rows carry when the users file names them (see above). */
export function userKey(name: string, id: string | undefined): string {
  return id ?? `user:${name}`;
}

/** True for a key that only a users-file line can give: such a key absent from the file is a removed user. */
export function isFileUserKey(key: string): boolean {
  return key.startsWith("user:") || USER_ID_PATTERN.test(key);
}

export function parseUsersFile(text: string): Map<string, UserEntry> {
  const users = new Map<string, UserEntry>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    // The hash has no colon (scrypt$N$r$p$salt$hash, base64url): a second colon starts the id.
    const [hash, id, ...extra] = line.slice(colon + 1).split(":");
    if (!USER_NAME_PATTERN.test(name) || !hash?.startsWith("scrypt$") || extra.length > 0) continue;
    if (id !== undefined && !USER_ID_PATTERN.test(id)) continue;
    users.set(name, { hash, key: userKey(name, id) });
  }
  return users;
}

/**
 * The users file, re-read when it changes. One per runtime (server/runtime/create-runtime.ts), shared by the gate, the
 * sign-in, the exposure guard and the workspace's user access.
 */
export class UsersFile {
  private entry: { checkedAt: number; signature: string; users: Map<string, UserEntry> } | null = null;

  constructor(
    readonly path: string,
    private readonly log: Pick<StructuredLog, "error"> = getLogger(),
  ) {}

  /** Users in the file; an absent file means no users (loopback use stays open). */
  read(now = Date.now()): Map<string, UserEntry> {
    const entry = this.entry;
    if (entry && now - entry.checkedAt < RECHECK_MS) return entry.users;
    let signature = "absent";
    try {
      const st = statSync(this.path);
      signature = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      // Missing file: no users.
    }
    if (entry && entry.signature === signature) {
      entry.checkedAt = now;
      return entry.users;
    }
    let users = new Map<string, UserEntry>();
    if (signature !== "absent") {
      try {
        users = parseUsersFile(readFileSync(this.path, "utf8"));
      } catch (error) {
        // Unreadable but present: keep the previous list rather than silently opening the server.
        this.log.error({ err: error }, "auth: users file unreadable");
        users =
          entry?.users ??
          new Map([["\u0000unreadable", { hash: "scrypt$invalid", key: "\u0000unreadable" }]]);
      }
    }
    this.entry = { checkedAt: now, signature, users };
    return users;
  }
}

const RECHECK_MS = 1000;
