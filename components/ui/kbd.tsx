import type { ReactNode } from "react";

export function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="border-line-strong bg-surface text-2xs text-muted inline-flex h-5 min-w-5 items-center justify-center rounded border px-1 font-mono">
      {children}
    </kbd>
  );
}
