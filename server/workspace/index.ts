import "server-only";
import path from "node:path";
import { getLogger } from "../log";
import { lazyDatabase, type DatabaseHandle } from "../db/database";
import { getRuntime } from "../runtime";
import { createWorkspace, type Workspace } from "./create-workspace";

export type { Workspace } from "./create-workspace";

/**
 * The process's workspace. The composition root builds it when it has a database (`runtime.workspace`); until
 * then it is built here, once per process in a `globalThis` slot (Next bundles route handlers apart), from the
 * runtime's hub and upstream client and the database the runtime holds, or one opened here.
 */

const SLOT = Symbol.for("callroom.workspace");
const DB_SLOT = Symbol.for("callroom.database");
type Holder = { [SLOT]?: Workspace; [DB_SLOT]?: DatabaseHandle };

export function getWorkspace(): Workspace {
  const runtime = getRuntime() as ReturnType<typeof getRuntime> & {
    workspace?: Workspace;
    database?: DatabaseHandle;
  };
  if (runtime.workspace) return runtime.workspace;
  const holder = globalThis as Holder;
  if (!holder[SLOT]) {
    const log = getLogger();
    const database =
      runtime.database ??
      (holder[DB_SLOT] ??= lazyDatabase({
        url: process.env.DATABASE_URL || undefined,
        dataDir: process.env.CALLROOM_DATA_DIR || path.join(process.cwd(), "data", "pglite"),
        logger: log,
      }));
    const workspace = createWorkspace({
      database,
      hub: runtime.live.hub,
      isLeader: () => (runtime.live.scale ? runtime.live.scale.role() === "leader" : true),
      upstream: runtime.upstream,
      log,
      env: process.env,
    });
    workspace.start();
    holder[SLOT] = workspace;
  }
  return holder[SLOT];
}
