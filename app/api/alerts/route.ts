// GET /api/alerts – the inbox, newest first, filtered by ticker/rule/call/unread: { data: Alert[], unread, facets? }
import { z } from "zod";
import { alertListFilterSchema } from "@/lib/schemas/alerts";
import { intParam } from "@/lib/schemas/params";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { workspaceJson } from "@/server/workspace/http";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = alertListFilterSchema.extend({
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
