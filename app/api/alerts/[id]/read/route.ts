// POST /api/alerts/[id]/read – mark one alert read
import { z } from "zod";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { pathId } from "@/server/workspace/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  { user: true, mutation: true, params: z.object({ id: z.string() }) },
  async ({ runtime, user, params }) => {
    const id = pathId(params.id, "alert");
    const { alerts } = await runtime.workspace.repositories();
    return privateJson({ data: await alerts.markRead(user, id) });
  },
);
