import { connection } from "next/server";
import type { ReactNode } from "react";
import { AlertToastsSlot } from "@/components/alerts/alert-toasts-slot";
import { SiteHeader } from "@/components/shell/site-header";
import { getRuntime } from "@/server/runtime";

/** Whether to mark the screen "Demo data". Read per request: the mode is a deployment setting, not a build input. */
async function isDemoMode(): Promise<boolean> {
  await connection();
  try {
    return getRuntime().config.upstream.mode === "embedded";
  } catch {
    // A broken environment is reported by /api/health; the shell still renders.
    return false;
  }
}

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const isDemo = await isDemoMode();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="focus:bg-canvas sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:px-2 focus:py-1"
      >
        Skip to content
      </a>
      <SiteHeader isDemo={isDemo} />
      <main id="main" className="mx-auto w-full max-w-[1600px] flex-1 px-3 py-4 sm:px-4">
        <AlertToastsSlot />
        {children}
      </main>
    </div>
  );
}
