import { Overview } from "@/components/overview/overview";
import { PageHeader } from "@/components/shell/page-header";

export default function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview" description="Today’s reports, the rest of the week, and recent deals." />
      <Overview />
    </>
  );
}
