import type { Metadata } from "next";
import { Suspense } from "react";
import { MaCalendar } from "@/components/calendar/ma-calendar";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "M&A calendar" };

export default function MaCalendarPage() {
  return (
    <>
      <PageHeader
        title="M&A calendar"
        description="Announced, pending and completed mergers and acquisitions."
      />
      <Suspense>
        <MaCalendar />
      </Suspense>
    </>
  );
}
