import type { AdminEvent } from '@tradeport/contracts';
import { useEffect, useSyncExternalStore } from 'react';
import { stream } from '../stream/stream';

/**
 * The back office's live feed, on the app's one stream connection: back-office events (a trader
 * filed a deposit or withdrawal request, an administrator decided one) while a queue is on screen,
 * and `resync` after a reconnect or a gap, when anything may have changed.
 *
 * Events only tell a screen *what* changed; the screens refetch from the API. While the stream is
 * down, the queues keep polling (PENDING_REFETCH_MS).
 */
type Listener = (event: AdminEvent | { type: 'resync' }) => void;
export type FeedState = 'connecting' | 'live' | 'down';

/** Calls `listener` for every back-office event (and `resync` after a reconnect) while mounted. */
export function useAdminFeed(listener: Listener): void {
  useEffect(() => {
    const offEvent = stream.onAdminEvent(listener);
    const offResync = stream.onResync(() => listener({ type: 'resync' }));
    return () => {
      offEvent();
      offResync();
    };
  }, [listener]);
}

const subscribeState = (onChange: () => void) => stream.onState(onChange);

function feedState(): FeedState {
  const state = stream.getState();
  return state === 'open' ? 'live' : state === 'connecting' ? 'connecting' : 'down';
}

/** Whether the back-office feed is connected: the queues say "Live" instead of "Updates every 10 s". */
export function useAdminFeedState(): FeedState {
  return useSyncExternalStore(subscribeState, feedState);
}
