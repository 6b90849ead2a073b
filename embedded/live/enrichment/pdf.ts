/**
 * The transcript PDF (docs/upstream.md §5 `pdf`): title, company, date and time, participants, summary, overall sentiment,
 * then every segment with its speaker and offset. Only the 14 standard PDF fonts are used (their metrics ship inside
 * pdfkit), so nothing is read from the network or from font files. The document is byte-for-byte deterministic:
 * CreationDate/ModDate come from the call's start (pdfkit derives the file ID from them) instead of the wall clock.
 */
import PDFDocument from "pdfkit";
import { EASTERN_TIME_ZONE } from "../../../common/time/eastern";
import type { EnrichmentInput, EnrichmentResult } from "./types";

const FONT = "Helvetica";
const FONT_BOLD = "Helvetica-Bold";
const MARGIN = 56;
const TEXT_COLOR = "#111827";
const MUTED_COLOR = "#6b7280";
const RULE_COLOR = "#d1d5db";
/** Sentiment within ±this reads as neutral: dictionary scores of a balanced call hover near 0. */
const NEUTRAL_BAND = 0.1;
/** US Eastern is the listing venues' clock (common/time/eastern.ts); UTC follows so readers elsewhere need no conversion. */
const MARKET_TIME_ZONE = EASTERN_TIME_ZONE;

/** "HH:MM:SS" offset from the call start, as in the transcript's segment `start_time`. */
export function formatOffset(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return [hours, minutes, seconds].map((part) => String(part).padStart(2, "0")).join(":");
}

export function formatCallDate(date: Date): string {
  const day = new Intl.DateTimeFormat("en-US", {
    timeZone: MARKET_TIME_ZONE,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
  }).format(date);
  const marketTime = new Intl.DateTimeFormat("en-US", {
    timeZone: MARKET_TIME_ZONE,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(date);
  const utc = `${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")} UTC`;
  return `${day}, ${marketTime} (${utc})`;
}

export function formatSentiment(score: number): string {
  const label = score > NEUTRAL_BAND ? "positive" : score < -NEUTRAL_BAND ? "negative" : "neutral";
  const sign = score > 0 ? "+" : score < 0 ? "-" : "";
  return `${sign}${Math.abs(score).toFixed(2)} (${label})`;
}

// The standard fonts use WinAnsi encoding: characters outside it would print as garbage, so map the common ones.
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
function toWinAnsi(text: string): string {
  return text
    .replace(/\u2212/g, "-")
    .replace(/[\u00a0\u2009\u202f]/g, " ")
    .replace(/./gu, (char) => ((char.codePointAt(0) ?? 0) <= 0xff || WIN_ANSI_EXTRAS.has(char) ? char : "?"));
}

interface Column {
  header: string;
  width: number;
  value: (row: EnrichmentResult["participants"][number]) => string;
}

export async function renderTranscriptPdf(input: EnrichmentInput, result: EnrichmentResult): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "LETTER",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    compress: true,
    font: FONT,
    info: {
      Title: toWinAnsi(input.callTitle),
      Author: toWinAnsi(input.companyName),
      Subject: `Earnings call transcript ${input.callId}`,
      Creator: "Callroom",
      Producer: "Callroom (PDFKit)",
      CreationDate: input.startTime,
      ModDate: input.startTime,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const width = doc.page.width - MARGIN * 2;
  const heading = (text: string) => {
    doc.moveDown(1.2).font(FONT_BOLD).fontSize(13).fillColor(TEXT_COLOR).text(text, MARGIN, doc.y, { width });
    doc.moveDown(0.3);
  };

  doc.font(FONT_BOLD).fontSize(18).fillColor(TEXT_COLOR).text(toWinAnsi(input.callTitle), { width });
  doc
    .moveDown(0.3)
    .font(FONT)
    .fontSize(11)
    .text(toWinAnsi(`${input.companyName} (${input.symbol})`), { width });
  doc.fillColor(MUTED_COLOR).text(formatCallDate(input.startTime), { width });
  doc.fontSize(9).text(`Call ID ${input.callId}`, { width });

  heading("Participants");
  const columns: Column[] = [
    { header: "Name", width: width * 0.24, value: (p) => p.name },
    { header: "Role", width: width * 0.14, value: (p) => p.role },
    { header: "Title", width: width * 0.27, value: (p) => p.title },
    { header: "Organization", width: width * 0.23, value: (p) => p.organization },
    { header: "Mentions", width: width * 0.12, value: (p) => String(p.mentions) },
  ];
  const drawRow = (cells: string[], bold: boolean) => {
    doc
      .font(bold ? FONT_BOLD : FONT)
      .fontSize(9)
      .fillColor(TEXT_COLOR);
    const heights = cells.map((cell, i) => doc.heightOfString(cell, { width: (columns[i]?.width ?? 0) - 6 }));
    const rowHeight = Math.max(...heights) + 6;
    if (doc.y + rowHeight > doc.page.height - MARGIN) doc.addPage();
    const top = doc.y;
    let x = MARGIN;
    cells.forEach((cell, i) => {
      doc.text(cell, x, top + 3, { width: (columns[i]?.width ?? 0) - 6, lineBreak: true });
      x += columns[i]?.width ?? 0;
    });
    doc
      .moveTo(MARGIN, top + rowHeight)
      .lineTo(MARGIN + width, top + rowHeight)
      .lineWidth(0.5)
      .strokeColor(RULE_COLOR)
      .stroke();
    doc.x = MARGIN;
    doc.y = top + rowHeight;
  };
  drawRow(
    columns.map((c) => c.header),
    true,
  );
  for (const participant of result.participants)
    drawRow(
      columns.map((c) => toWinAnsi(c.value(participant))),
      false,
    );

  heading("Summary");
  doc.font(FONT).fontSize(10).fillColor(TEXT_COLOR);
  if (result.summaryLines.length === 0) doc.text("No summary.", { width });
  for (const line of result.summaryLines) {
    doc.text(`•  ${toWinAnsi(line)}`, MARGIN, doc.y, { width, indent: 0 });
    doc.moveDown(0.3);
  }
  doc.moveDown(0.5).font(FONT_BOLD).text("Overall sentiment: ", MARGIN, doc.y, { continued: true });
  doc.font(FONT).text(formatSentiment(result.overallSentiment));

  heading("Transcript");
  const names = new Map(input.speakers.map((speaker) => [speaker.label, speaker.name]));
  input.segments.forEach((segment, index) => {
    const name = names.get(segment.speakerLabel) ?? segment.speakerLabel;
    const sentiment = result.segmentSentiments[index];
    const meta = `   ${formatOffset(segment.startMs)}${sentiment === undefined || sentiment === 0 ? "" : `   sentiment ${formatSentiment(sentiment)}`}`;
    doc.moveDown(0.4);
    if (doc.y > doc.page.height - MARGIN - 40) doc.addPage();
    doc
      .font(FONT_BOLD)
      .fontSize(10)
      .fillColor(TEXT_COLOR)
      .text(toWinAnsi(name), MARGIN, doc.y, { width, continued: true });
    doc.font(FONT).fontSize(8).fillColor(MUTED_COLOR).text(meta);
    doc.font(FONT).fontSize(10).fillColor(TEXT_COLOR).text(toWinAnsi(segment.text), MARGIN, doc.y, { width });
  });

  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page += 1) {
    doc.switchToPage(page);
    // Writing inside the bottom margin would otherwise make pdfkit open a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN / 2 - 8;
    doc.font(FONT).fontSize(8).fillColor(MUTED_COLOR);
    doc.text(toWinAnsi(`${input.callTitle} - demo data`), MARGIN, y, {
      width: width * 0.75,
      lineBreak: false,
    });
    doc.text(`Page ${page - range.start + 1} of ${range.count}`, MARGIN, y, {
      width,
      align: "right",
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }

  doc.end();
  return done;
}
