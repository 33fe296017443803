import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { toastError, toastSuccess } from '../../ui/toast';

/**
 * A row's action: the dialog that asks about one row, and the toast that reports the server's
 * answer. The row itself changes at once and back on a refusal in the mutation (`optimisticChange`
 * in api/admin/cache.ts).
 */

/** A dialog about one row, which keeps showing that row while it animates closed. */
export function useRowDialog<T>() {
  const [row, setRow] = useState<T | null>(null);
  const [opened, setOpened] = useState(false);
  return {
    row,
    opened,
    open: (value: T) => {
      setRow(value);
      setOpened(true);
    },
    close: () => setOpened(false),
  };
}

/**
 * Toasts how a row's action ended: `success` (by default the server's own message) or the server's
 * refusal. Given the promise of `mutateAsync`, not `mutate`'s callbacks, so that with several
 * actions in flight each reports its own answer.
 */
export function toastOutcome<Answer>(action: Promise<Answer>, success: (answer: Answer) => string = (answer) => (answer as { message: string }).message): Promise<void> {
  return action.then(
    (answer) => toastSuccess(success(answer)),
    (err: unknown) => toastError(errorMessage(err)),
  );
}
