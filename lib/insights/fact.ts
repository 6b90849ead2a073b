import type { Figure } from "@/lib/schemas/insights";

/**
 * At or above: shown as fact. Below: shown greyed as unverified. Calibrated on real calls (docs/insights.md). A
 * module of its own so the pages that only show figures do not load the extraction with it (docs/performance.md).
 */
export const FIGURE_CONFIDENCE_THRESHOLD = 0.7;

export const isFact = (f: Pick<Figure, "confidence">) => f.confidence >= FIGURE_CONFIDENCE_THRESHOLD;
