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

export const successMessage = (message: string) => ({ status: 'success' as const, message });
