import { useSyncExternalStore } from "react";

const noopSubscribe = () => () => {};

/**
 * False while the server renders and while the component hydrates, true after. For what a component must not show
 * in its first render because the server could not know it: e.g. a query the layout's header shares, which may have
 * been answered by the time content hydrated later (components/ui/hydrate-later.tsx) would hydrate.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
}
