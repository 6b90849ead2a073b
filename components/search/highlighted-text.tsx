import type { SearchHit } from "@/lib/schemas/search";

/** A sentence with the words that matched in `<mark>`: built from parts, so transcript text is never parsed as HTML. */
export function HighlightedText({ parts }: { parts: SearchHit["highlight"] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.isMatch ? (
          <mark key={i} className="bg-warn-soft text-fg rounded-sm font-medium">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
