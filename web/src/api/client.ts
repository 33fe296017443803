import type { CallName, Calls } from '@tradeport/contracts';
import type { z } from 'zod';
import { callRoutes } from './call-routes.generated';

type Definition<K extends CallName> = Calls[K];

/** What a call takes: its JSON body for POST calls, its query for GET calls. */
export type CallInput<K extends CallName> =
  Definition<K> extends { body: infer B extends z.ZodType } ? z.input<B> : Definition<K> extends { query: infer Q extends z.ZodType } ? z.input<Q> : void;

/** A call's successful answer, as its contract describes it. */
export type CallOutput<K extends CallName> = z.output<Definition<K>['response']>;

/** Every refusal, network failure and time-out reaches the UI as one of these, with a readable message. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when no answer arrived. */
    readonly httpStatus: number,
    /** The spec's `status` string ('Failure', 'This account does not exist', …). */
    readonly status: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** No call may hang the UI (docs/design.md#timeouts-on-every-call): each is abandoned after this long. */
export const REQUEST_TIMEOUT_MS = 15_000;
export const MESSAGES = {
  offline: 'Could not reach the server. Check your connection and try again.',
  timeout: 'The server did not answer in time. Please try again.',
  unreadable: 'The server sent an answer we could not read. Please try again.',
} as const;

let unauthorizedHandler: (() => void) | null = null;

/** The trading account this tab's trader calls act on (api/trading-accounts.ts pins it); null: the server's choice. */
let accountForCalls: () => number | null = () => null;

export function callsActOn(account: () => number | null): void {
  accountForCalls = account;
}

/** Called when a call that needs a session is refused with 401: the session has ended. */
export function onUnauthorized(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as `Idempotency-Key` on calls that create something, so a retry cannot act twice. */
  idempotencyKey?: string;
  timeoutMs?: number;
}

/** AbortSignal.any where the browser has it (Safari 17.4+, Chrome 116+), else the same by hand. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

function queryString(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Makes one call of the contracts' table. Components never call `fetch`: they use the query hooks,
 * which call this. Resolves with the answer of a 2xx reply; rejects with an ApiError otherwise.
 */
export async function callApi<K extends CallName>(name: K, input?: CallInput<K>, options: CallOptions = {}): Promise<CallOutput<K>> {
  const route = callRoutes[name];
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal ? anySignal([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json' };
  // Each tab trades on the account it shows, whatever another tab of the browser chose since.
  const account = route.access === 'trader' && name !== 'getAccounts' ? accountForCalls() : null;
  if (account !== null) headers['x-trading-account'] = String(account);
  let url = `/api${route.path}`;
  let body: string | undefined;
  if (route.method === 'GET') url += queryString(input);
  else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input ?? {});
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  }

  let response: Response;
  try {
    response = await fetch(url, { method: route.method, headers, body, signal, credentials: 'same-origin' });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, 'Failure', timeout.aborted ? MESSAGES.timeout : MESSAGES.offline);
  }

  let payload: { status?: unknown; message?: unknown } | null = null;
  try {
    payload = (await response.json()) as { status?: unknown; message?: unknown };
  } catch {
    payload = null;
  }
  if (response.status === 401 && route.access !== 'public') unauthorizedHandler?.();
  if (!response.ok) {
    const message = typeof payload?.message === 'string' && payload.message ? payload.message : MESSAGES.unreadable;
    throw new ApiError(response.status, typeof payload?.status === 'string' ? payload.status : 'Failure', message);
  }
  if (payload === null) throw new ApiError(response.status, 'Failure', MESSAGES.unreadable);
  return payload as CallOutput<K>;
}

/** The message to show for any error a call or a hook produced. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return MESSAGES.offline;
}

/** The calls that answer with a file (`produces` in the contracts), rather than JSON. */
export type FileCallName = { [K in CallName]: Calls[K] extends { produces: readonly string[] } ? K : never }[CallName];

/** A file an export call answered: its contents, the name the server gave it, and how many rows it holds. */
export interface FetchedFile {
  blob: Blob;
  fileName: string;
  rows: number;
}

/** An export reads and streams every matching row: it is given longer than an ordinary call. */
export const FILE_TIMEOUT_MS = 120_000;

/**
 * Makes one call that answers with a file (a back-office export): resolves with the file, or
 * rejects with an ApiError carrying the server's refusal (a refusal is JSON like any other).
 */
export async function fetchFile<K extends FileCallName>(name: K, input?: CallInput<K>, options: CallOptions = {}): Promise<FetchedFile> {
  const route = callRoutes[name];
  const timeout = AbortSignal.timeout(options.timeoutMs ?? FILE_TIMEOUT_MS);
  const signal = options.signal ? anySignal([options.signal, timeout]) : timeout;
  let response: Response;
  let blob: Blob;
  try {
    const headers: Record<string, string> = { accept: `${route.produces.join(', ')}, application/json` };
    // A trader's file is of the account this tab shows, as every call of theirs is.
    const account = route.access === 'trader' ? accountForCalls() : null;
    if (account !== null) headers['x-trading-account'] = String(account);
    response = await fetch(`/api${route.path}${queryString(input)}`, { method: 'GET', headers, signal, credentials: 'same-origin' });
    blob = await response.blob();
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, 'Failure', timeout.aborted ? MESSAGES.timeout : MESSAGES.offline);
  }
  if (response.status === 401) unauthorizedHandler?.();
  if (!response.ok) {
    let payload: { status?: unknown; message?: unknown } | null = null;
    try {
      payload = JSON.parse(await blob.text()) as { status?: unknown; message?: unknown };
    } catch {
      payload = null;
    }
    const message = typeof payload?.message === 'string' && payload.message ? payload.message : MESSAGES.unreadable;
    throw new ApiError(response.status, typeof payload?.status === 'string' ? payload.status : 'Failure', message);
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? name;
  return { blob, fileName, rows: Number(response.headers.get('x-export-rows') ?? 0) };
}
