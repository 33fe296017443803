import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { callApi } from '../api/client';
import { useSession } from '../api/queries';
import { useTradingAccounts } from '../api/trading-accounts';
import { queryClient } from '../api/query-client';
import { currentSession } from '../auth/session';
import { eventAccountLabel, invalidateAccountData, invalidateForEvent, showsAccount, toastForEvent } from '../stream/live-updates';
import { stream } from '../stream/stream';
import { toast } from './toast';

/** The stream's account listeners while it runs; null when it is stopped. */
let live: (() => void) | null = null;

/** A browser notification, when the trader allowed them and the page is not in view (in view, the toast says it). */
function notifyBrowser(title: string, body: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  try {
    new Notification(title, { body, tag: title });
  } catch {
    // Some browsers allow notifications only from a service worker: the toast is there anyway.
  }
}

/**
 * Starts the stream with its account listeners (each event refetches what it changed and toasts
 * what the trader should hear about; a resync refetches everything). Idempotent; `live` stops the
 * listening. The stream is started even when the listeners are already there: a sign-out or an
 * ended session may have stopped it since (the early start below owns no cleanup).
 */
function goLive(): void {
  if (!live) {
    const offEvent = stream.onEvent((event) => {
      invalidateForEvent(queryClient, event);
      const t = toastForEvent(event);
      if (!t) return;
      // A notice about another of the trader's accounts says which.
      const label = 'accountId' in event && !showsAccount(queryClient, event.accountId) ? eventAccountLabel(queryClient, event) : null;
      toast(label ? { ...t, title: `${label}: ${t.title}` } : t);
      // A price alert also reaches a trader looking at another window, if they allowed it.
      if (event.type === 'alert.fired') notifyBrowser(t.title, t.message);
    });
    const offResync = stream.onResync(() => invalidateAccountData(queryClient));
    live = () => {
      offEvent();
      offResync();
      live = null;
    };
  }
  stream.start();
}

/**
 * Called by the router while it loads this layout, beside the session check: once the session is
 * known good the socket opens, so it is connected by the time a page (the terminal) first renders
 * and subscribes, instead of only starting then.
 */
export async function connectEarly(): Promise<void> {
  if (await currentSession()) goLive();
}

/**
 * Everything behind sign-in: the stream runs while a signed-in page is open, its account events
 * refetch what they changed (and toast what the trader should hear about), and a session ended on
 * the server (deactivation, password change elsewhere) returns to sign-in.
 */
export function SignedInLayout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  // A trader's tab learns its accounts at once, and pins the one it shows (api/trading-accounts.ts).
  useTradingAccounts(useSession().data?.accountType === '0');

  useEffect(() => {
    goLive();
    const online = () => stream.reconnectNow();
    window.addEventListener('online', online);
    return () => {
      live?.();
      window.removeEventListener('online', online);
    };
  }, []);

  useEffect(() => {
    // The stream ends when a session of this user is revoked — which may be another device's
    // (signed out there) or this tab's old one (this tab changed the password and holds the new
    // session). Ask the server about this tab's cookie before leaving.
    const sessionEnded = async () => {
      const session = await callApi('testSession').catch(() => null);
      if (session?.status === 'success') {
        stream.start();
        return;
      }
      toast({ title: 'Signed out', message: 'Your session has ended. Please sign in again.', color: 'yellow' });
      client.clear();
      void navigate('/', { replace: true });
    };
    return stream.onSessionEnded(() => void sessionEnded());
  }, [client, navigate]);

  return <Outlet />;
}
