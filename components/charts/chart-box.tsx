"use client";

import { useRef, type ReactNode } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { useInView } from "@/components/ui/use-in-view";

/** The chart's box, at its final height, holding a skeleton until it nears the viewport and the chart arrives. */
export function ChartBox({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const inView = useInView(ref);
  return (
    <div ref={ref} className="relative w-full" style={{ height }}>
      {inView ? children : <ChartSkeleton />}
    </div>
  );
}

/** What a chart shows until it is drawn: fills the ChartBox around it. */
export function ChartSkeleton() {
  return <Skeleton className="absolute inset-0" />;
}
