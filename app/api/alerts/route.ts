// GET /api/alerts – the inbox, newest first, filtered by ticker/rule/call/unread: { data: Alert[], unread, facets? }
import { z } from "zod";
import { alertListFilterSchema } from "@/lib/schemas/alerts";
import { intParam } from "@/lib/schemas/params";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = alertListFilterSchema.extend({
  limit: intParam("limit", 1, 200).default(50),
  before: z
    .string()
    .regex(/^\d{1,15}$/, "before must be an alert id")
    .optional(),
});

export const GET = route({ user: true, query: querySchema }, async ({ runtime, user, query }) => {
  const { alerts } = await runtime.workspace.repositories();
  return privateJson(await alerts.listAlerts(user, query));
});
