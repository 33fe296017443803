import type { FastifyReply } from 'fastify';

/**
 * An answer that is a file (a call that `produces` one in the contracts): `registerCall` sends it
 * as an attachment instead of writing JSON. Refusals stay JSON.
 */
export abstract class FileAnswer {
  abstract send(reply: FastifyReply): FastifyReply;

  /** Every file's headers: its type, sent as an attachment under its name, never kept, and how many rows it holds (`X-Export-Rows`). */
  protected attach(reply: FastifyReply, type: string, fileName: string, rows: number): FastifyReply {
    return reply.type(type).header('content-disposition', `attachment; filename="${fileName}"`).header('cache-control', 'no-store').header('x-export-rows', String(rows));
  }
}

/** A file made whole before it is sent (a statement): its bytes, type and name. */
export class BytesFile extends FileAnswer {
  constructor(
    readonly fileName: string,
    readonly type: 'application/pdf' | 'text/csv; charset=utf-8',
    readonly bytes: Buffer,
    /** What `X-Export-Rows` says: the rows (or lines) it holds. */
    readonly rows: number,
  ) {
    super();
  }

  send(reply: FastifyReply): FastifyReply {
    return this.attach(reply, this.type, this.fileName, this.rows).send(this.bytes);
  }
}
