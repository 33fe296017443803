import type { Quote } from '@tradeport/contracts';

/* The stream client's settings, the socket it drives, its states and its timing (see stream-client.ts). */

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface SocketLike {
  readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface StreamClientOptions {
  url: () => string;
  createSocket?: (url: string) => SocketLike;
  /** Quotes through REST while the socket is down. */
  pollQuotes?: (symbols: string[]) => Promise<Quote[]>;
  pollIntervalMs?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
  /** A handshake that has not said hello by then is abandoned and retried. */
  connectTimeoutMs?: number;
  /** After this long without a message the client pings the server (default PING_AFTER_MS). */
  pingAfterMs?: number;
  /** A connection silent for this long is dead (default SILENCE_LIMIT_MS). */
  silenceLimitMs?: number;
}

/**
 * With prices moving the stream is never quiet for long; on a quiet market the client asks. Two
 * seconds of quiet brings a ping, and five seconds without any answer (a ping is answered at once)
 * mean the server or the network is gone: prices shown as live would be frozen.
 */
export const PING_AFTER_MS = 2_000;
export const SILENCE_LIMIT_MS = 5_000;
