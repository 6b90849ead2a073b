// DELETE /api/calls/[callId]/notes/[noteId] – remove one of the user's notes
import { z } from "zod";
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { noContent } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { pathId } from "@/server/workspace/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = route(
  { user: true, mutation: true, params: callIdParamsSchema.extend({ noteId: z.string() }) },
  async ({ runtime, user, params }) => {
    const id = pathId(params.noteId, "note");
    await (await runtime.workspace.repositories()).notes.remove(user, params.callId, id);
    return noContent();
  },
);
