import type { FastifyReply } from 'fastify';

/**
 * An answer that is a file (a call that `produces` one in the contracts): `registerCall` sends it
 * as an attachment instead of writing JSON. Refusals stay JSON.
 */
export abstract class FileAnswer {
  abstract send(reply: FastifyReply): FastifyReply;
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
    return reply
      .type(this.type)
      .header('content-disposition', `attachment; filename="${this.fileName}"`)
      .header('cache-control', 'no-store')
      .header('x-export-rows', String(this.rows))
      .send(this.bytes);
  }
}
