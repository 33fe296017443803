import type { FastifyReply } from 'fastify';
import type { Refusal} from '../../services/errors';
import { type RefusalKind } from '../../services/errors';

const statusCodes: Record<RefusalKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  'unknown-account': 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'too-many': 429,
  unavailable: 503,
};

/** How long a client is told to wait before retrying work refused as 'unavailable'. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

export function sendRefusal(reply: FastifyReply, refusal: Refusal): FastifyReply {
  if (refusal.kind === 'unavailable') reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return reply.code(statusCodes[refusal.kind]).send({ status: refusal.status, message: refusal.message });
}

export function sendFailure(reply: FastifyReply, code: number, message: string): FastifyReply {
  return reply.code(code).send({ status: 'Failure', message });
}

/** Friendly words for the framework's own 4xx errors (parse failures, limits, media types). */
export function messageForFrameworkError(code: string | undefined, statusCode: number): string {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return 'The request is too large.';
    case 'FST_FILES_LIMIT':
      return 'File uploads are not accepted here.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return 'Unsupported content type. Send JSON (or a multipart form where the API says so).';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The request has an invalid Content-Length.';
    default:
      return statusCode === 413 ? 'The request is too large.' : statusCode === 415 ? 'Unsupported content type.' : 'The request could not be processed.';
  }
}

/** The spec's success shapes. */
export const successData = <T>(data: T) => ({ status: 'success' as const, data });

const serializedLists = new WeakMap<unknown[], JsonText<unknown>>();

/**
 * How often a kept answer was given again (`hits`) and how often one had to be built and kept
 * (`misses`), by `successList` and every `answerCache`, since the process started, and how often an
 * answer could not be kept at all (`unkept`: built from rows that are not kept, as on PostgreSQL).
 * The benchmarks read it to report the hit rate (see bench/reads-http.ts).
 */
export const keptAnswerStats = { hits: 0, misses: 0, unkept: 0 };

/**
 * How many pages (searches, orders, offsets) of one kept list are kept with it at most: a search
 * typed letter by letter asks for a page per letter; past this many they are all dropped at once.
 */
export const MAX_KEPT_PAGES = 256;

/**
 * A page of one kept list: `pages` is kept with the list (and dropped with it), one answer per query.
 * The answer to `query` is given again while the list is the same, or built by `build` and kept. A
 * query with no `limit` but other fields (a search or order of the whole list, as large as the list)
 * is built and not kept: only the spec's own call, with no query at all, keeps a whole list, so the
 * pages kept stay small.
 */
export function keptPage<T>(pages: Map<string, JsonText<T>>, query: Readonly<Record<string, unknown>>, build: () => T): JsonText<T> | T {
  const fields = Object.keys(query)
    .filter((k) => query[k] !== undefined)
    .sort();
  if (query.limit === undefined && fields.length > 0) {
    keptAnswerStats.unkept += 1;
    return build();
  }
  const key = JSON.stringify(fields.map((k) => [k, query[k]]));
  let text = pages.get(key);
  if (text !== undefined) {
    keptAnswerStats.hits += 1;
    return text;
  }
  keptAnswerStats.misses += 1;
  if (pages.size >= MAX_KEPT_PAGES) pages.clear();
  text = JsonText.of(build());
  pages.set(key, text);
  return text;
}

/**
 * `successData(list)`, serialized once for a list handed out again unchanged (frozen, from
 * `mapRows`); any other list is answered as usual.
 */
export function successList<T>(list: T[]): JsonText<{ status: 'success'; data: T[] }> | { status: 'success'; data: T[] } {
  if (!Object.isFrozen(list)) {
    keptAnswerStats.unkept += 1;
    return successData(list);
  }
  let text = serializedLists.get(list) as JsonText<{ status: 'success'; data: T[] }> | undefined;
  if (text) keptAnswerStats.hits += 1;
  else {
    keptAnswerStats.misses += 1;
    serializedLists.set(list, (text = JsonText.of(successData(list))));
  }
  return text;
}
export const successMessage = (message: string) => ({ status: 'success' as const, message });

/** The pieces' UTF-8 in one buffer: the buffers copied, the strings encoded into it. */
function joined(pieces: readonly (Buffer | string)[]): Buffer {
  let size = 0;
  for (const piece of pieces) size += typeof piece === 'string' ? Buffer.byteLength(piece, 'utf8') : piece.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += typeof piece === 'string' ? out.write(piece, at, 'utf8') : piece.copy(out, at);
  return out;
}

/**
 * An answer serialized once and sent as is many times: for answers that change only when the
 * server restarts (the instrument catalogue), so JSON.stringify does not run on every request.
 */
export class JsonText<T> {
  /** Only for the type checker: the answer this text is the JSON of. */
  declare readonly value?: T;
  private source: string | undefined;
  private encoded: Buffer | undefined;
  /** The text in pieces, joined (and the strings among them encoded) on first use (`bytes`). */
  private pieces: readonly (Buffer | string)[] | undefined;
  private constructor(text: string | undefined, pieces?: readonly (Buffer | string)[]) {
    this.source = text;
    this.pieces = pieces;
  }

  /** The JSON text. */
  get text(): string {
    return this.source ?? this.bytes.toString('utf8');
  }

  /**
   * The text as UTF-8, encoded (or joined from its pieces) on first use and kept instead of the
   * string or pieces (a kept answer is then neither encoded again per request nor held twice).
   */
  get bytes(): Buffer {
    if (this.encoded === undefined) {
      this.encoded = this.pieces === undefined ? Buffer.from(this.source as string, 'utf8') : joined(this.pieces);
      this.source = undefined;
      this.pieces = undefined;
    }
    return this.encoded;
  }

  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(JSON.stringify(value));
  }

  /** An answer assembled from JSON already serialized (the caller vouches that it is a `T`). */
  static assembled<T>(text: string): JsonText<T> {
    return new JsonText<T>(text);
  }

  /**
   * An answer assembled from pieces of JSON already serialized, in order (the caller vouches that
   * their text together is a `T`): each piece a string, or its UTF-8 for a part that stays the same
   * across answers, encoded once by its owner and then only copied into each answer.
   */
  static assembledBytes<T>(pieces: readonly (Buffer | string)[]): JsonText<T> {
    return new JsonText<T>(undefined, pieces);
  }
}

/**
 * Answers built from values handed out again unchanged (frozen: kept rows, `mapRows` lists, or
 * objects memoized from them): each cache is one call's, keyed by those values in order, and keeps
 * the serialized answer. `variant` names whatever else the answer depends on (the quote book's
 * version, who is online now): the answer kept for the same values is used only while its variant is
 * the same, and a new variant replaces it. If any key is not frozen the answer is built as usual.
 * Each cache takes a fixed number of keys (`keyCount`, at least one).
 */
export function answerCache<T>(keyCount: number): (keys: readonly object[], build: () => T, variant?: string) => JsonText<T> | T {
  const root = new WeakMap<object, unknown>();
  return (keys, build, variant = '') => {
    // One level of the tree per key: a different count would mix a level's answers with its branches.
    if (keys.length !== keyCount) throw new Error(`answerCache: ${keys.length} keys given, ${keyCount} expected`);
    if (!keys.every((k) => Object.isFrozen(k))) {
      keptAnswerStats.unkept += 1;
      return build();
    }
    let level = root;
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i] as object;
      let next = level.get(key) as WeakMap<object, unknown> | undefined;
      if (!next) level.set(key, (next = new WeakMap()));
      level = next;
    }
    const last = keys[keys.length - 1] as object;
    const kept = level.get(last) as { variant: string; text: JsonText<T> } | undefined;
    if (kept?.variant === variant) {
      keptAnswerStats.hits += 1;
      return kept.text;
    }
    keptAnswerStats.misses += 1;
    const text = JsonText.of(build());
    level.set(last, { variant, text });
    return text;
  };
}
