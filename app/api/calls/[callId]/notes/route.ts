// GET /api/calls/[callId]/notes – the user's notes on a call, in call order (`?format=md`: as Markdown); POST – a new note
import { z } from "zod";
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { noteInputSchema } from "@/lib/schemas/notes";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams, parseQuery } from "@/server/http/parse-query";
import { withRequestContext } from "@/server/http/request-context";
import { getCallOrImported } from "@/server/archive/call-lookup";
import { getRuntime } from "@/server/runtime";
import { liveCallDeps } from "@/server/runtime/live-call-deps";
import { getWorkspace } from "@/server/workspace";
import { mutationBody, workspaceJson } from "@/server/workspace/http";
import { assertCallExists, notesMarkdown } from "@/server/workspace/notes";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ callId: string }> };

const querySchema = z.object({
  format: z.enum(["json", "md"], { message: "format must be json or md" }).default("json"),
});

export const GET = withRequestContext(async function GET(
  request: Request,
  context: Context,
): Promise<Response> {
  try {
    const user = requestUser(request);
    const { callId } = parseParams(await context.params, callIdParamsSchema);
    const { format } = parseQuery(new URL(request.url).searchParams, querySchema);
    const workspace = getWorkspace();
    const notes = await (await workspace.repositories()).notes.list(user, callId);
    if (format === "json") return workspaceJson({ data: notes });
    // The export names the call; without the market-data service it still exports, titled by id.
    const call = await getCallOrImported(getRuntime().archive, liveCallDeps(), callId, {
      signal: request.signal,
    }).then(
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
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const POST = withRequestContext(async function POST(
  request: Request,
  context: Context,
): Promise<Response> {
  try {
    const user = requestUser(request);
    const { callId } = parseParams(await context.params, callIdParamsSchema);
    const input = await mutationBody(request, noteInputSchema);
    const { notes } = await getWorkspace().repositories();
    const { hub, upstream } = liveCallDeps();
    await assertCallExists({ hub, upstream, archived: (id) => notes.isArchived(id) }, callId, request.signal);
    return workspaceJson({ data: await notes.create(user, callId, input) }, 201);
  } catch (error) {
    return toErrorResponse(error);
  }
});
