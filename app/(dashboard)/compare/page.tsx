import type { Metadata } from "next";
import { Suspense } from "react";
import { CompareView } from "@/components/company/compare-view";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Compare companies" };

export default function ComparePage() {
  return (
    <>
      <PageHeader
        title="Compare companies"
        description="Two to ten companies side by side; the set lives in the URL."
      />
      <Suspense>
        <CompareView />
      </Suspense>
    </>
  );
}
