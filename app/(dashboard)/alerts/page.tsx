import type { Metadata } from "next";
import { AlertRules } from "@/components/alerts/alert-rules";
import { AlertsInbox } from "@/components/alerts/alerts-inbox";
import { NotificationSettings } from "@/components/alerts/notification-settings";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Alerts" };

export default function AlertsPage() {
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What Callroom heard for you on the calls you follow, and the rules it listens with."
        actions={<NotificationSettings />}
      />
      <section aria-labelledby="inbox-heading" className="mb-6">
        <h2 id="inbox-heading" className="mb-2 text-sm font-semibold">
          Inbox
        </h2>
        <AlertsInbox />
      </section>
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading" className="mb-2 text-sm font-semibold">
          Rules
        </h2>
        <AlertRules />
      </section>
    </>
  );
}
