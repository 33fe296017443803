/**
 * The CSV files the app writes: the trader's History export (made in the browser) and the back
 * office's exports (made by the server), in one zod-free module both import, so every file has the
 * same quoting, the same defence against formulas and the same times.
 */

export type CsvCell = string | number | null | undefined;

/**
 * One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). A text cell
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet
 * shows it as text instead of running it as a formula (a name such as `=HYPERLINK(…)` typed by a
 * trader must not become a link in the back office's spreadsheet). A negative number written as text
 * (`-12.50`, as money is sent) stays a number.
 */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF as RFC 4180 has it. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** Rows as CSV text, the header first. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  let text = csvLine(header);
  for (const row of rows) text += csvLine(row);
  return text;
}

/**
 * A time as a spreadsheet reads it: `2026-11-29 01:12:11`, in UTC (the column's header says so).
 * The wire's ISO form, with its T, milliseconds and Z, opens as text rather than as a date. Takes an
 * ISO string or epoch milliseconds; empty for none.
 */
export function csvTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 19).replace('T', ' ');
}
