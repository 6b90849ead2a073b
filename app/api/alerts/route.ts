// GET /api/alerts – the inbox, newest first, with the unread count: { data: Alert[], unread }
import { z } from "zod";
import { intParam } from "@/lib/schemas/params";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { workspaceJson } from "@/server/workspace/http";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({
  limit: intParam("limit", 1, 200).default(50),
  before: z
    .string()
    .regex(/^\d{1,15}$/, "before must be an alert id")
    .optional(),
});

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const query = parseQuery(new URL(request.url).searchParams, querySchema);
    const { alerts } = await getWorkspace().repositories();
    return workspaceJson(await alerts.listAlerts(user, query));
  } catch (error) {
    return toErrorResponse(error);
  }
});
