import { describe, expect, it, vi } from "vitest";
import type { Workspace } from "../workspace/create-workspace";
import { readConfig } from "../config";
import { createRuntime } from "./create-runtime";

/**
 * The runtime's stop closes the database whatever the rest does, in time for a SIGTERM's 5 s (issue 27, item 8): a
 * part that hangs (a delivery nobody cut, a stuck archive write) is left behind after the grace.
 */
describe("runtime.stop", () => {
  it("closes the database within the grace even when the workspace never finishes stopping", async () => {
    const hanging = { start() {}, stop: () => new Promise<void>(() => {}) } as unknown as Workspace;
    const runtime = createRuntime(readConfig({ CALLROOM_DATA_DIR: "memory://" }), { workspace: hanging });
    const close = vi.spyOn(runtime.database, "close");
    const started = Date.now();
    await runtime.stop();
    expect(close).toHaveBeenCalledTimes(1);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
