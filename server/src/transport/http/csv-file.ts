import { Readable } from 'node:stream';
import { csvLine, EXPORT_MAX_ROWS, type CsvCell } from '@tradeport/contracts';
import type { FastifyReply } from 'fastify';
import { refuse } from '../../services/errors';
import { FileAnswer } from './file-answer';

/** What an export is made of: its rows, counted before the first is written, then read in batches. */
export interface CsvExport<Row> {
  /** The file's name: `tradeport-…`, letters, digits and dashes, `.csv`. */
  fileName: string;
  /** What one row holds, e.g. 'deposit and withdrawal requests': in the refusal when there are too many. */
  rowsName: string;
  header: readonly string[];
  /** How many rows match (read before anything is written). */
  total: number;
  /** The rows, newest first, a batch at a time (the reads happen as the file is sent). */
  batches: AsyncIterable<readonly Row[]>;
  cells(row: Row): readonly CsvCell[];
}

/**
 * A CSV answer: sent as a file (`registerCall`), streamed batch by batch as the rows are read, so
 * neither the server nor a slow client holds the whole file. It starts with a byte-order mark, so a
 * spreadsheet reads names with accents as UTF-8 rather than in its local code page.
 */
export class CsvFile extends FileAnswer {
  private constructor(
    readonly fileName: string,
    readonly rows: number,
    private readonly chunks: () => AsyncGenerator<string>,
  ) {
    super();
  }

  /**
   * The file of an export, or a refusal (400, nothing written) when more rows match than one file
   * may hold: the administrator narrows the filters, rather than getting a file cut short unnoticed.
   */
  static of<Row>(e: CsvExport<Row>): CsvFile {
    if (e.total > EXPORT_MAX_ROWS) {
      throw refuse.invalid(`${e.total.toLocaleString('en-US')} ${e.rowsName} match these filters; one export holds at most ${EXPORT_MAX_ROWS.toLocaleString('en-US')}. Narrow the filters (a shorter date range) and export again.`);
    }
    const rows = e.total;
    async function* chunks(): AsyncGenerator<string> {
      yield `\uFEFF${csvLine(e.header)}`;
      // Rows that came after the count are not in the file, whatever the batches hold: the file
      // says what was counted, and stays within the limit.
      let left = rows;
      for await (const batch of e.batches) {
        let text = '';
        for (const row of batch) {
          if (left === 0) break;
          text += csvLine(e.cells(row));
          left -= 1;
        }
        if (text) yield text;
        if (left === 0) return;
      }
    }
    return new CsvFile(e.fileName, rows, chunks);
  }

  /** Sends the file as an attachment; `X-Export-Rows` says how many rows it holds. */
  send(reply: FastifyReply): FastifyReply {
    return this.attach(reply, 'text/csv; charset=utf-8', this.fileName, this.rows).send(Readable.from(this.chunks(), { objectMode: false }));
  }
}

/** `tradeport-<what>[-trader-<id>]-<from>-to-<to>.csv`: an open range starts at 'start' and ends today (UTC). */
export function exportFileName(what: string, f: { traderId?: number; from?: string; to?: string }, now: number): string {
  const today = new Date(now).toISOString().slice(0, 10);
  return `tradeport-${what}${f.traderId ? `-trader-${f.traderId}` : ''}-${f.from ?? 'start'}-to-${f.to ?? today}.csv`;
}

