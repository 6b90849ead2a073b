import "server-only";
import { getRuntime } from "../runtime";
import type { Workspace } from "./create-workspace";

export type { Workspace } from "./create-workspace";

/**
 * The process's workspace, built by the composition root (server/runtime) with the runtime's database, hub and
 * upstream client. Tests install a runtime built around a workspace of their own (`RuntimeOverrides.workspace`).
 */
export function getWorkspace(): Workspace {
  return getRuntime().workspace;
}
