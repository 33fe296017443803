import PDFDocument from 'pdfkit';
import { csvTime } from '@tradeport/contracts';
import { amount, KIND_NAMES, NOTES, periodDays, REASON_NAMES, sideName, summaryLines, valuationNote } from './statement-lines';
import type { Statement } from './statements';

/**
 * An account statement as a PDF a broker sends a client (pdfkit): A4 landscape, the broker's name
 * and the account at the top, the summary, then the closed trades, the balance operations and the
 * positions open at the end, each table's header repeated on every page it runs onto, and
 * "Page n of m" at the foot. Figures are right-aligned in one font size, so their digits line up.
 *
 * The built-in Helvetica writes Latin-1 text (Western European names); other characters print as "?".
 */

const MARGIN = 36;
const ROW = 14;
const INK = '#1a1d21';
const MUTED = '#5f6b7a';
const RULE = '#d5dae1';
const BAND = '#f2f4f7';

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

type Doc = InstanceType<typeof PDFDocument>;

/** Text Helvetica can write: Latin-1, everything else as '?', no line breaks. */
const latin1 = (text: string): string => text.replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e\xa0-\xff\u2014]/g, '?');

/** The statement's PDF bytes. `price` writes a price at its instrument's digits. */
export async function statementPdf(s: Statement, brokerName: string, price: (symbol: string, value: number | null) => string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Account statement ${s.account.number}`, Author: latin1(brokerName), Subject: 'Account statement', CreationDate: new Date(s.generatedAt) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const { first, last } = periodDays(s);

  // The heading: broker and title, then the account's particulars in two columns.
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(18).text(latin1(brokerName), MARGIN, MARGIN, { width: width * 0.7, height: 22, ellipsis: true, lineBreak: false });
  doc.font('Helvetica').fontSize(12).fillColor(MUTED).text('Account statement', MARGIN + width * 0.7, MARGIN + 4, { width: width * 0.3, align: 'right', height: 16, lineBreak: false });
  let y = MARGIN + 30;
  doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.75).strokeColor(RULE).stroke();
  y += 10;
  const particulars: [string, string][] = [
    ['Account holder', s.account.holderName],
    ['Account', `${s.account.number} (${s.account.kind === 'live' ? 'Live' : 'Demo'}, ${s.account.typeName})`],
    ['Currency and leverage', `${s.account.currency}, 1:${s.account.leverage}`],
    ['Period', `${first} to ${last} (UTC)`],
    ['Generated', `${csvTime(s.generatedAt)} UTC`],
  ];
  particulars.forEach(([label, value], i) => {
    const x = MARGIN + (i % 2) * (width / 2);
    const rowY = y + Math.floor(i / 2) * 15;
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(label, x, rowY, { width: 110 });
    doc.font('Helvetica-Bold').fillColor(INK).text(latin1(value), x + 110, rowY, { width: width / 2 - 120, height: 12, lineBreak: false, ellipsis: true });
  });
  y += Math.ceil(particulars.length / 2) * 15 + 12;

  // The summary: how the opening balance became the closing one, then the equity at the end.
  y = heading(doc, 'Summary (USD)', y);
  const summaryWidth = 300;
  for (const line of summaryLines(s)) {
    if (line.total) doc.rect(MARGIN, y - 2, summaryWidth, ROW).fill(BAND);
    doc.font(line.total ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).fillColor(INK);
    doc.text(line.label, MARGIN + 4, y + 1, { width: 200, lineBreak: false });
    doc.text(amount(line.cents), MARGIN + 200, y + 1, { width: summaryWidth - 204, align: 'right', lineBreak: false });
    y += ROW;
  }
  y += 12;

  const tradeColumns: Column[] = [
    { title: 'Ticket', width: 96 },
    { title: 'Opened', width: 84 },
    { title: 'Type', width: 30 },
    { title: 'Volume', width: 40, align: 'right' },
    { title: 'Symbol', width: 52 },
    { title: 'Open price', width: 58, align: 'right' },
    { title: 'Closed', width: 84 },
    { title: 'Close price', width: 58, align: 'right' },
    { title: 'Reason', width: 62 },
    { title: 'Commission', width: 58, align: 'right' },
    { title: 'Swap', width: 52, align: 'right' },
    { title: 'Profit', width: width - 674, align: 'right' },
  ];
  const tradeRows = s.trades.map((t) => [t.partOf === null ? String(t.ticket) : `${t.ticket} (of ${t.partOf})`, csvTime(t.openedAt), sideName(t.side), t.volume.toFixed(2), t.symbol, price(t.symbol, t.openPrice), csvTime(t.closedAt), price(t.symbol, t.closePrice), REASON_NAMES[t.reason] ?? t.reason, amount(t.commissionCents), amount(t.swapCents), amount(t.profitCents)]);
  const sum = (pick: (t: Statement['trades'][number]) => number) => s.trades.reduce((a, t) => a + pick(t), 0);
  y = await table(doc, `Closed trades (${s.trades.length})`, tradeColumns, tradeRows, y, ['Total', '', '', '', '', '', '', '', '', amount(sum((t) => t.commissionCents)), amount(sum((t) => t.swapCents)), amount(sum((t) => t.profitCents))]);

  const operationColumns: Column[] = [
    { title: 'Time', width: 96 },
    { title: 'Kind', width: 80 },
    { title: 'Description', width: width - 356 },
    { title: 'Amount', width: 90, align: 'right' },
    { title: 'After', width: 90, align: 'right' },
  ];
  y = await table(doc, `Balance operations (${s.operations.length})`, operationColumns, s.operations.map((o) => [csvTime(o.at), KIND_NAMES[o.kind] ?? o.kind, latin1(o.memo), amount(o.amountCents), amount(o.afterCents)]), y);

  const positionColumns: Column[] = [
    { title: 'Ticket', width: 58 },
    { title: 'Opened', width: 96 },
    { title: 'Type', width: 36 },
    { title: 'Volume', width: 50, align: 'right' },
    { title: 'Symbol', width: 60 },
    { title: 'Open price', width: 74, align: 'right' },
    { title: 'Price', width: 74, align: 'right' },
    { title: 'Swap', width: 80, align: 'right' },
    { title: 'Floating profit', width: width - 528, align: 'right' },
  ];
  const positionRows = s.openPositions.map((p) => [String(p.ticket), csvTime(p.openedAt), sideName(p.side), p.volume.toFixed(2), p.symbol, price(p.symbol, p.openPrice), price(p.symbol, p.price), amount(p.swapCents), amount(p.profitCents)]);
  y = await table(doc, `Open positions at the end (${s.openPositions.length})`, positionColumns, positionRows, y, ['Total', '', '', '', '', '', '', '', amount(s.summary.floatingCents)]);

  y = room(doc, y, 40);
  doc.font('Helvetica').fontSize(8).fillColor(MUTED).text(`Times are UTC; amounts are USD. ${valuationNote(s)} ${NOTES}`, MARGIN, y, { width });

  // "Page n of m" on every page, in the bottom margin (no new page for it).
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i += 1) {
    doc.switchToPage(pages.start + i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor(MUTED);
    doc.text(`${latin1(brokerName)} - account ${s.account.number} - ${first} to ${last}`, MARGIN, doc.page.height - 24, { width: width * 0.75, height: 10, lineBreak: false, ellipsis: true });
    doc.text(`Page ${i + 1} of ${pages.count}`, MARGIN + width * 0.75, doc.page.height - 24, { width: width * 0.25, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** The y to write at with `needed` points free, on a new page when this one has not got them. */
function room(doc: Doc, y: number, needed: number): number {
  if (y + needed <= doc.page.height - MARGIN - 16) return y;
  doc.addPage();
  return MARGIN;
}

function heading(doc: Doc, title: string, y: number): number {
  // The title, the column titles and a first row stay together.
  const at = room(doc, y, 18 + 2 * ROW);
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(title, MARGIN, at, { lineBreak: false });
  return at + 18;
}

function cells(doc: Doc, columns: Column[], values: string[], y: number): void {
  let x = MARGIN;
  columns.forEach((c, i) => {
    // A height makes pdfkit cut a long text with an ellipsis instead of wrapping it onto the next row.
    doc.text(values[i] ?? '', x + 3, y + 3, { width: c.width - 6, height: ROW - 4, align: c.align ?? 'left', lineBreak: false, ellipsis: true });
    x += c.width;
  });
}

/** Rows written between two turns of the event loop: a long statement never holds the server for long. */
const ROWS_PER_TURN = 200;

/** A table under its heading; its column titles are written again at the top of each page it runs onto. */
async function table(doc: Doc, title: string, columns: Column[], rows: string[][], y: number, totals?: string[]): Promise<number> {
  const total = columns.reduce((a, c) => a + c.width, 0);
  const header = (at: number) => {
    doc.rect(MARGIN, at, total, ROW).fill(BAND);
    doc.font('Helvetica-Bold').fontSize(8).fillColor(MUTED);
    cells(doc, columns, columns.map((c) => c.title), at);
    return at + ROW;
  };
  y = header(heading(doc, title, y));
  if (rows.length === 0) {
    doc.font('Helvetica').fontSize(8).fillColor(MUTED).text('None in this period.', MARGIN + 3, y + 3, { lineBreak: false });
    return y + ROW + 14;
  }
  let written = 0;
  for (const row of [...rows, ...(totals ? [totals] : [])]) {
    if (++written % ROWS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const next = room(doc, y, ROW);
    if (next !== y) y = header(next);
    const isTotal = row === totals;
    doc.font(isTotal ? 'Helvetica-Bold' : 'Helvetica').fontSize(8).fillColor(INK);
    cells(doc, columns, row, y);
    doc.moveTo(MARGIN, y + ROW).lineTo(MARGIN + total, y + ROW).lineWidth(0.5).strokeColor(RULE).stroke();
    y += ROW;
  }
  return y + 14;
}
