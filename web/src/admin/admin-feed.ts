import type { AdminEvent } from '@tradeport/contracts';
import { useEffect, useSyncExternalStore } from 'react';

/**
 * The back office's live feed: a connection to `/api/stream` that asks for back-office events
 * (`subscribeAdmin`) — a trader filed a deposit or withdrawal request, or an administrator decided
 * one. It is separate from the app's quote stream (stream/stream.ts) so the trader-facing event
 * handling never sees back-office events, and it is open only while a screen that shows a queue is
 * mounted (shared by all of them, closed a few seconds after the last one goes).
 *
 * Events only tell a screen *what* changed; the screens refetch from the API. While the feed is
 * down, the queues keep polling (PENDING_REFETCH_MS), and every reconnect counts as "anything may
 * have changed".
 */
type Listener = (event: AdminEvent | { type: 'resync' }) => void;
export type FeedState = 'connecting' | 'live' | 'down';

const MIN_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A screen change unmounts one queue and mounts the next: keep the socket over that gap. */
const LINGER_MS = 5000;
/** Close codes after which reconnecting cannot help: the session ended, or the socket was refused. */
const FINAL_CLOSE_CODES = new Set([4001, 1008]);

class AdminFeed {
  private socket: WebSocket | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly stateListeners = new Set<() => void>();
  private state: FeedState = 'down';
  private users = 0;
  private attempt = 0;
  private everOpened = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;

  getState = (): FeedState => this.state;

  onState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Keeps the feed open while the returned function has not been called. */
  use(listener: Listener): () => void {
    this.listeners.add(listener);
    this.users += 1;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (!this.socket && !this.retryTimer) this.connect();
    return () => {
      this.listeners.delete(listener);
      this.users -= 1;
      if (this.users === 0) this.lingerTimer = setTimeout(() => this.stop(), LINGER_MS);
    };
  }

  private setState(state: FeedState): void {
    if (state === this.state) return;
    this.state = state;
    this.stateListeners.forEach((l) => l());
  }

  private connect(): void {
    this.retryTimer = null;
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    let socket: WebSocket;
    try {
      socket = new WebSocket(`${scheme}://${window.location.host}/api/stream`);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    this.setState('connecting');
    socket.onmessage = (message) => {
      let data: { type?: string; event?: AdminEvent };
      try {
        data = JSON.parse(String(message.data)) as typeof data;
      } catch {
        return;
      }
      if (data.type === 'hello') {
        socket.send(JSON.stringify({ type: 'subscribeAdmin' }));
        this.attempt = 0;
        this.setState('live');
        // Events may have been missed while the feed was down.
        if (this.everOpened) this.listeners.forEach((l) => l({ type: 'resync' }));
        this.everOpened = true;
      } else if (data.type === 'admin' && data.event) {
        const event = data.event;
        this.listeners.forEach((l) => l(event));
      }
    };
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.users === 0 || FINAL_CLOSE_CODES.has(close.code)) {
        this.setState('down');
        return;
      }
      this.retry();
    };
  }

  /** Capped exponential backoff with full jitter, like the quote stream. */
  private retry(): void {
    this.setState('down');
    const ceiling = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), MIN_BACKOFF_MS / 2 + Math.random() * ceiling);
  }

  private stop(): void {
    this.lingerTimer = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.attempt = 0;
    this.everOpened = false;
    socket?.close(1000);
    this.setState('down');
  }
}

const feed = new AdminFeed();

/** Calls `listener` for every back-office event (and `resync` after a reconnect) while mounted. */
export function useAdminFeed(listener: Listener): void {
  useEffect(() => feed.use(listener), [listener]);
}

/** Whether the back-office feed is connected: the queues say "Live" instead of "Updates every 10 s". */
export function useAdminFeedState(): FeedState {
  return useSyncExternalStore(feed.onState, feed.getState);
}
