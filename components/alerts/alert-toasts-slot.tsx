"use client";

import { lazy, Suspense, useSyncExternalStore } from "react";

/**
 * Where the alert toasts go: the top of the page's main area (components/alerts/alert-toasts.tsx says where they
 * show at each width). The toasts and the alert stream they listen to load once the page is up: nothing of theirs
 * shows at load, and every page's first-load JS would otherwise carry them (docs/performance.md, First-load JS).
 */
const AlertToasts = lazy(() => import("./alert-toasts").then((m) => ({ default: m.AlertToasts })));

export function AlertToastsSlot() {
  // False in the server's HTML and while hydrating, true after: the toasts' code is asked for once the page is up.
  const hydrated = useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
  return hydrated ? (
    <Suspense fallback={null}>
      <AlertToasts />
    </Suspense>
  ) : null;
}

const noopSubscribe = () => () => {};
