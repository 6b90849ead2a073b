// GET /api/calls/[callId]/notes – the user's notes on a call, in call order (`?format=md`: as Markdown); POST – a new note
import { z } from "zod";
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { noteInputSchema } from "@/lib/schemas/notes";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { assertCallExists, notesMarkdown } from "@/server/workspace/notes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({
  format: z.enum(["json", "md"], { message: "format must be json or md" }).default("json"),
});

export const GET = route(
  { user: true, params: callIdParamsSchema, query: querySchema },
  async ({ runtime, request, user, params, query, signal }) => {
    const { callId } = params;
    const { workspace } = runtime;
    const notes = await (await workspace.repositories()).notes.list(user, callId);
    if (query.format === "json") return privateJson({ data: notes });
    // The export names the call; without the market-data service it still exports, titled by id.
    const call = await runtime.call(callId, { signal }).then(
      ({ call }) => ({ callId, title: call.title, symbol: call.symbol }),
      () => ({ callId, title: `Call ${callId}`, symbol: "" }),
    );
    const baseUrl = workspace.publicBaseUrl ?? new URL(request.url).origin;
    return new Response(notesMarkdown(call, notes, baseUrl), {
      headers: {
        "Content-Type": "text/markdown; charset=utf-8",
        "Content-Disposition": `attachment; filename="notes-${callId}.md"`,
        "Cache-Control": "no-store",
      },
    });
  },
);

export const POST = route(
  { user: true, params: callIdParamsSchema, body: noteInputSchema },
  async ({ runtime, user, params, body, signal }) => {
    const { notes } = await runtime.workspace.repositories();
    const lookup = {
      live: runtime.live.bus,
      upstream: runtime.upstream,
      archived: (id: string) => notes.isArchived(id),
    };
    await assertCallExists(lookup, params.callId, signal);
    return privateJson({ data: await notes.create(user, params.callId, body) }, 201);
  },
);
