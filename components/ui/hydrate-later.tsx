import { Activity, type ReactNode } from "react";

/**
 * Server-rendered content that React hydrates after the page's shell, in slices of a few milliseconds between which
 * the browser stays responsive, instead of in the one long task that hydrates the shell. The HTML is painted as it
 * is meanwhile; a click or key on it before then hydrates it at once and is replayed. A visible `<Activity>` is such a
 * boundary without Suspense's cost on the server: the content stays inline in the HTML (a large Suspense boundary is
 * sent apart and revealed up to 300 ms after the first paint). docs/performance.md, "Hydration in slices".
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  return <Activity mode="visible">{children}</Activity>;
}
