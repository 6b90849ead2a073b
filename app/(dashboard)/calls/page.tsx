import type { Metadata } from "next";
import { Suspense } from "react";
import { CallsBrowser } from "@/components/calls/calls-browser";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Calls" };

export default function CallsPage() {
  return (
    <>
      <PageHeader
        title="Calls"
        description="Earnings conference calls: live ones first, then the most recent, with their summaries."
      />
      {/* The filters live in the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense>
        <CallsBrowser />
      </Suspense>
    </>
  );
}
