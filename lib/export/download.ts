/** Saves generated text as a file in the browser (no server round trip: the view is already on screen). */
export function downloadText(filename: string, text: string, mimeType: string): void {
  // A BOM lets Excel open UTF-8 CSV with non-ASCII names intact; calendar apps ignore it for ICS, so only CSV gets it.
  const body = mimeType.startsWith("text/csv") ? `\uFEFF${text}` : text;
  const url = URL.createObjectURL(new Blob([body], { type: mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
