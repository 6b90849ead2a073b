import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { AlertRules } from "@/components/alerts/alert-rules";
import { AlertsInbox } from "@/components/alerts/alerts-inbox";
import { NotificationSettings } from "@/components/alerts/notification-settings";
import { PageHeader } from "@/components/shell/page-header";
import { HydrateLater } from "@/components/ui/hydrate-later";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { prefetchApi } from "../_server/prefetch";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage() {
  // The rules, mutes and lists in the first HTML: nothing fills in around the inbox after hydration. Not the inbox's
  // rows: opening one marks it read, which only the hydrated page can do, and a row a click reached before the
  // scripts would open its call unmarked; nor the bell's query, which the layout's header renders first, so the
  // server could not hand it over here (its count shows once hydrated: components/ui/use-hydrated.ts).
  // docs/performance.md, "Lighthouse on issue 28's pages".
  const state = await prefetchApi([
    apiQueries.alertRules(),
    apiQueries.alertMutes(),
    apiQueries.watchlists(),
  ]);
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What Callroom heard for you on the calls you follow, and the rules it listens with."
        actions={<NotificationSettings />}
      />
      <HydrationBoundary state={state}>
        <HydrateLater>
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
        </HydrateLater>
      </HydrationBoundary>
    </>
  );
}
