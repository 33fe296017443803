import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';

/**
 * What the back-office lists add to the admin screens (admin-pages.ts has the screens themselves):
 * 'Export CSV' and the file it saves, the audit log's filters, a payment account's Edit dialog and
 * a trader's pending orders with Modify and Cancel.
 */

export interface SavedCsv {
  fileName: string;
  /** The file as saved, byte-order mark included. */
  text: string;
  /** The records, header first, fields unquoted (RFC 4180). */
  rows: string[][];
}

/** Fields of an RFC 4180 text (after the byte-order mark). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = text.startsWith('\uFEFF') ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  return rows;
}

/** Clicks 'Export CSV' in `scope` and reads the file the browser saved. */
export async function exportCsv(page: Page, scope: Locator | Page = page): Promise<SavedCsv> {
  const [download] = await Promise.all([page.waitForEvent('download'), scope.getByRole('button', { name: 'Export CSV' }).click()]);
  const path = await download.path();
  const text = readFileSync(path, 'utf8');
  return { fileName: download.suggestedFilename(), text, rows: parseCsv(text) };
}

/** Types `search` into a searchable select (a TraderPicker or a plain Select) labelled `label` and picks `option`. */
export async function choose(page: Page, label: string, search: string, option: string | RegExp): Promise<void> {
  const box = page.getByRole('combobox', { name: label, exact: true });
  await box.click();
  await box.fill(search);
  await page.getByRole('listbox', { name: label }).getByRole('option', { name: option }).first().click();
}

export class TraderPendingOrders {
  constructor(readonly page: Page) {}
  readonly table = () => this.page.getByRole('table', { name: 'Pending orders' });
  readonly dialog = () => this.page.getByRole('dialog');
  row(orderId: number): Locator {
    return this.table().getByRole('row').filter({ has: this.page.getByRole('cell', { name: `#${orderId}`, exact: true }) });
  }
  modify(orderId: number): Locator {
    return this.page.getByRole('button', { name: `Modify order ${orderId}` });
  }
  cancel(orderId: number): Locator {
    return this.page.getByRole('button', { name: `Cancel order ${orderId}` });
  }
}
