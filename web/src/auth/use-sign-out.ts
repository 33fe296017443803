import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { signOut } from '../api/queries';
import { stream } from '../stream/stream';
import { toastError } from '../ui/toast';

/**
 * LogOut, wherever it is offered (the dashboard's header, the terminal's top bar, the phone's
 * menu): the stream stops only once the server has ended the session, so a failed sign-out keeps
 * the page live and says why; then back to sign-in.
 */
export function useSignOut(): () => Promise<void> {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    try {
      await signOut(client);
    } catch (err) {
      toastError(errorMessage(err), 'Could not sign out');
      return;
    }
    stream.stop();
    void navigate('/', { replace: true });
  };
}
