"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Kbd } from "@/components/ui/kbd";

export const SHORTCUTS: readonly { keys: string[]; action: string }[] = [
  { keys: ["/"], action: "Search tickers" },
  { keys: ["Ctrl", "K"], action: "Search tickers" },
  { keys: ["j"], action: "Next row in a table" },
  { keys: ["k"], action: "Previous row in a table" },
  { keys: ["Enter"], action: "Open the selected row" },
  { keys: ["Space"], action: "Play / pause audio in the call room" },
  { keys: ["n"], action: "Write a note at this moment (call room)" },
  { keys: ["f"], action: "Follow or unfollow the company (company page, call room)" },
  { keys: ["?"], action: "Show these shortcuts" },
  { keys: ["Esc"], action: "Close a dialog or list" },
];

/** The native <dialog> gives focus trapping, Escape and the inert background for free. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby="shortcuts-title"
      onClose={onClose}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      className="border-line-strong bg-canvas text-fg m-auto w-[min(26rem,calc(100vw-2rem))] rounded-md border p-4 shadow-xl backdrop:bg-black/40"
    >
      <div className="mb-3 flex items-center justify-between">
        <h2 id="shortcuts-title" className="text-sm font-semibold">
          Keyboard shortcuts
        </h2>
        <Button variant="ghost" onClick={onClose} aria-label="Close">
          Close
        </Button>
      </div>
      <table className="w-full text-[13px]">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys.join("+") + s.action} className="border-line border-b last:border-0">
              <td className="py-1.5 pr-4 whitespace-nowrap">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? <span className="text-muted mx-0.5">+</span> : null}
                    <Kbd>{k}</Kbd>
                  </span>
                ))}
              </td>
              <td className="py-1.5">{s.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </dialog>
  );
}
