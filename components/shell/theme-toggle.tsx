"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useTheme, type ThemeChoice } from "./theme-provider";

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: "light", light: "dark", dark: "system" };
const LABEL: Record<ThemeChoice, string> = { system: "System", light: "Light", dark: "Dark" };

/** The drawing of each choice, in a 16 × 16 stroked icon. */
const GLYPH: Record<ThemeChoice, ReactNode> = {
  light: (
    <>
      <circle cx="8" cy="8" r="3" />
      <path d="M8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6 13 13M3 13l1.4-1.4M11.6 4.4 13 3" />
    </>
  ),
  dark: <path d="M13.5 9.5A5.5 5.5 0 0 1 6.5 2.5a5.5 5.5 0 1 0 7 7Z" />,
  system: (
    <>
      <rect x="1.5" y="2.5" width="13" height="9" rx="1" />
      <path d="M5.5 14h5" />
    </>
  ),
};

function Icon({ choice }: { choice: ThemeChoice }) {
  return (
    <svg
      aria-hidden
      viewBox="0 0 16 16"
      width="16"
      height="16"
      className="size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      {GLYPH[choice]}
    </svg>
  );
}

/** Cycles system → light → dark; the label names the current choice and the next one. */
export function ThemeToggle() {
  const { choice, setChoice } = useTheme();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={`Theme: ${LABEL[choice]}. Switch to ${LABEL[NEXT[choice]]}`}
      title={`Theme: ${LABEL[choice]} (click for ${LABEL[NEXT[choice]]})`}
      onClick={() => setChoice(NEXT[choice])}
    >
      <Icon choice={choice} />
    </Button>
  );
}
