"use client";

import { useId, useState, type ReactNode } from "react";
import { cn } from "./cn";

/**
 * A hover/focus explanation. The trigger is focusable and points at the tip with aria-describedby, so keyboard
 * and screen-reader users get the same text; Escape hides it (WCAG 1.4.13).
 */
export function Tooltip({
  content,
  children,
  className,
  side = "top",
}: {
  content: ReactNode;
  children: ReactNode;
  className?: string;
  side?: "top" | "bottom";
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <span
      className={cn("relative inline-flex", className)}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
    >
      <span
        tabIndex={0}
        aria-describedby={id}
        className="decoration-muted cursor-help decoration-dotted underline-offset-2 hover:underline focus-visible:underline"
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
        }}
      >
        {children}
      </span>
      <span
        id={id}
        role="tooltip"
        className={cn(
          "border-line-strong bg-canvas text-fg pointer-events-none absolute left-0 z-50 w-max max-w-72 rounded border px-2 py-1.5 text-left text-xs font-normal whitespace-normal shadow-lg",
          side === "top" ? "bottom-full mb-1" : "top-full mt-1",
          open ? "block" : "hidden",
        )}
      >
        {content}
      </span>
    </span>
  );
}
