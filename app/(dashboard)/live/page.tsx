import type { Metadata } from "next";
import { LiveBoard } from "@/components/calls/live-board";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Live calls" };

export default function LivePage() {
  return (
    <>
      <PageHeader
        title="Live calls"
        description="Every earnings call in progress, updating as it is spoken."
      />
      <LiveBoard />
    </>
  );
}
