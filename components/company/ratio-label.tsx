"use client";

import { Tooltip } from "@/components/ui/tooltip";
import { ratioDefinition } from "@/lib/ratio-definitions";

/** A ratio's name that explains itself on hover and focus. */
export function RatioLabel({ ratioKey }: { ratioKey: string }) {
  const def = ratioDefinition(ratioKey);
  return (
    <Tooltip
      side="bottom"
      content={
        <>
          <span className="block font-semibold">{def.label}</span>
          <span className="text-muted block">{def.definition}</span>
          {def.higherIsBetter !== null ? (
            <span className="text-2xs text-muted mt-1 block">
              {def.higherIsBetter ? "Higher is better." : "Lower is better."}
            </span>
          ) : null}
        </>
      }
    >
      {def.label}
    </Tooltip>
  );
}
