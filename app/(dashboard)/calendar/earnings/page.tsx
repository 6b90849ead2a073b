import type { Metadata } from "next";
import { Suspense } from "react";
import { EarningsCalendar } from "@/components/calendar/earnings-calendar";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Earnings calendar" };

export default function EarningsCalendarPage() {
  return (
    <>
      <PageHeader
        title="Earnings calendar"
        description="Scheduled and reported quarterly results, with estimates and surprises."
      />
      {/* The calendar reads its filters from the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense>
        <EarningsCalendar />
      </Suspense>
    </>
  );
}
