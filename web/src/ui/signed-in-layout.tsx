import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { callApi } from '../api/client';
import { invalidateAccountData, invalidateForEvent, toastForEvent } from '../stream/live-updates';
import { stream } from '../stream/stream';
import { toast } from './toast';

/**
 * Everything behind sign-in: the stream runs while a signed-in page is open, its account events
 * refetch what they changed (and toast what the trader should hear about), and a session ended on
 * the server (deactivation, password change elsewhere) returns to sign-in.
 */
export function SignedInLayout() {
  const client = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    const offEvent = stream.onEvent((event) => {
      invalidateForEvent(client, event);
      const t = toastForEvent(event);
      if (t) toast(t);
    });
    const offResync = stream.onResync(() => invalidateAccountData(client));
    stream.start();
    const online = () => stream.reconnectNow();
    window.addEventListener('online', online);
    return () => {
      offEvent();
      offResync();
      window.removeEventListener('online', online);
    };
  }, [client]);

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
