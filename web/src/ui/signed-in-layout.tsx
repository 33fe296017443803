import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
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
    const sessionEnded = () => {
      toast({ title: 'Signed out', message: 'Your session has ended. Please sign in again.', color: 'yellow' });
      client.clear();
      void navigate('/', { replace: true });
    };
    return stream.onSessionEnded(sessionEnded);
  }, [client, navigate]);

  return <Outlet />;
}
