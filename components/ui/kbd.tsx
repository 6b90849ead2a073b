import type { ReactNode } from "react";
import { cn } from "./cn";

export function Kbd({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <kbd
      className={cn(
        "border-line-strong bg-surface text-2xs text-muted inline-flex h-5 min-w-5 items-center justify-center rounded border px-1 font-mono font-normal",
        className,
      )}
    >
      {children}
    </kbd>
  );
}
