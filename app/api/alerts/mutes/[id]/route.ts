// DELETE /api/alerts/mutes/[id] – unmute
import { z } from "zod";
import { noContent } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { pathId } from "@/server/workspace/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = route(
  { user: true, mutation: true, params: z.object({ id: z.string() }) },
  async ({ runtime, user, params }) => {
    const id = pathId(params.id, "mute");
    const { workspace } = runtime;
    await (await workspace.repositories()).alerts.deleteMute(user, id);
    workspace.rulesChanged();
    return noContent();
  },
);
