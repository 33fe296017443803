import type { Access, FileType } from '@tradeport/contracts';

/** What the browser needs of a call at run time: where it goes and who may make it. */
export interface CallRoute {
  method: 'GET' | 'POST';
  path: string;
  access: Access;
  encoding?: 'json' | 'multipart';
  /** The types of file the call answers with (its `produces`), for the request's Accept header. */
  produces?: readonly FileType[];
}
