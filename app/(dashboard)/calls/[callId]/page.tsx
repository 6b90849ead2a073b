import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CallRoom } from "@/components/calls/call-room";
import type { CallEnvelope } from "@/lib/queries/calls";
import { callIdSchema } from "@/lib/schemas/calls";
import { AppError } from "@/server/errors";
import { getRuntime } from "@/server/runtime";

/**
 * The call room. The call is loaded on the server so an unknown id answers a real 404 (no loading boundary
 * above this page: streaming would have sent 200 already) and the transcript is in the first HTML. When the
 * market-data service is down, the page still renders and the browser retries with a visible error state.
 */
async function loadCall(callId: string): Promise<CallEnvelope | null> {
  try {
    const { call, fetchedAt, stale } = await getRuntime().call(callId);
    return { data: call, meta: { fetchedAt, stale } };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    return null;
  }
}

export async function generateMetadata({
  params,
}: {
  params: Promise<{ callId: string }>;
}): Promise<Metadata> {
  const { callId } = await params;
  return { title: `Call ${callId.slice(0, 8)}` };
}

export default async function CallPage({ params }: { params: Promise<{ callId: string }> }) {
  const { callId: raw } = await params;
  const parsed = callIdSchema.safeParse(raw);
  if (!parsed.success) notFound();
  const callId = parsed.data.toLowerCase();
  const initial = await loadCall(callId);
  // nuqs reads `?t=` through useSearchParams; the page renders per request, so that needs no Suspense boundary,
  // and one would make React reveal the whole call room at least 300 ms after the first paint (see /calls).
  return <CallRoom callId={callId} initial={initial} />;
}
