import type { ReactNode } from "react";
import { cn } from "./cn";

export type BadgeTone = "neutral" | "pos" | "neg" | "accent" | "warn";

const TONES: Record<BadgeTone, string> = {
  neutral: "border-line text-muted",
  pos: "border-transparent bg-pos-soft text-pos",
  neg: "border-transparent bg-neg-soft text-neg",
  accent: "border-transparent bg-accent-soft text-accent",
  warn: "border-transparent bg-warn-soft text-warn",
};

export function Badge({
  tone = "neutral",
  children,
  className,
  title,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
  title?: string;
}) {
  return (
    <span
      title={title}
      className={cn(
        "text-2xs inline-flex h-5 items-center rounded border px-1.5 font-medium whitespace-nowrap",
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
