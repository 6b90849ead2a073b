import "server-only";
import { getRuntime } from "../runtime";
import type { Workspace } from "./create-workspace";

export type { Workspace } from "./create-workspace";

/**
 * The process's workspace, built by the composition root (server/runtime) with the runtime's database, hub and
 * upstream client. Tests may install one of their own in the `callroom.workspace` slot.
 */

const SLOT = Symbol.for("callroom.workspace");
type Holder = { [SLOT]?: Workspace };

export function getWorkspace(): Workspace {
  return (globalThis as Holder)[SLOT] ?? getRuntime().workspace;
}
