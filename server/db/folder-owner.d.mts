// Types of folder-owner.mjs (plain JavaScript, shared with the launcher).

export declare const LOCK_FILE: string;

export interface Owner {
  pid: number;
  host: string;
  startedAt: string;
  procStart: string | null;
  purpose: string;
  /** The secret that lets `npm run import` write through the owner (only in the lock file, mode 0600). */
  token?: string;
}

/** Who holds the folder now: its live owner, or null (free, or left by a process that is gone). */
export declare function folderOwner(dataDir: string): Owner | null;

export declare class FolderInUseError extends Error {
  readonly code: "FOLDER_IN_USE";
  readonly folder: string;
  readonly owner: Owner;
  constructor(folder: string, owner: Owner);
}

/** The message a process refused a folder prints: which folder, who holds it, and what to do. */
export declare function folderInUseMessage(folder: string, owner: Owner): string;

/** Takes the folder for this process, or throws `FolderInUseError`; a lock left by a dead process is taken over. */
export declare function claimFolder(dataDir: string, purpose: string): { release(): void; token: string };
