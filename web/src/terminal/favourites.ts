import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_FAVOURITES } from '@tradeport/contracts/terminal-limits';
import { useCallback, useMemo } from 'react';
import { callApi, errorMessage, type CallOutput } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { toastError } from '../ui/toast';

type FavouritesAnswer = CallOutput<'getFavourites'>;
const NONE: readonly string[] = Object.freeze([]);
const EDIT_KEY = ['edit-favourites'];

/** The trader's favourite symbols (oldest first), kept on the server; `has` answers for one symbol. */
export function useFavourites(): { symbols: readonly string[]; has: ReadonlySet<string>; loaded: boolean; error: unknown; refetch(): void } {
  const query = useQuery({ queryKey: queryKeys.favourites, queryFn: ({ signal }) => callApi('getFavourites', undefined, { signal }), staleTime: 5 * 60_000 });
  const symbols = query.data?.data ?? NONE;
  const has = useMemo(() => new Set(symbols), [symbols]);
  const { refetch } = query;
  return { symbols, has, loaded: query.isSuccess, error: query.error, refetch: useCallback(() => void refetch(), [refetch]) };
}

/** What a full list says: the server's own refusal, said before asking it. */
export const FAVOURITES_FULL = `You already have ${MAX_FAVOURITES} favourites, the most the list may hold. Remove one before adding another.`;

/**
 * Adds or removes a favourite: the star changes at once and goes back if the server refuses (its
 * message in a toast). Changes go to the server one at a time, in order, so a quick second click
 * never lands before the first; the list shown is the server's once the last change is answered.
 */
export function useToggleFavourite(): (symbol: string, favourite: boolean) => void {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationKey: EDIT_KEY,
    scope: { id: 'favourites' },
    mutationFn: ({ symbol, favourite }: { symbol: string; favourite: boolean }) => callApi('editFavourites', { symbol, favourite }),
    onMutate: async ({ symbol, favourite }) => {
      await client.cancelQueries({ queryKey: queryKeys.favourites });
      const before = client.getQueryData<FavouritesAnswer>(queryKeys.favourites);
      const others = (before?.data ?? []).filter((s) => s !== symbol);
      client.setQueryData<FavouritesAnswer>(queryKeys.favourites, { status: 'success', data: favourite ? [...others, symbol] : others });
    },
    onSuccess: (answer) => {
      // Only the last change's answer: an earlier one does not know of the changes queued after it.
      if (client.isMutating({ mutationKey: EDIT_KEY }) <= 1) client.setQueryData(queryKeys.favourites, answer);
    },
    onError: (error) => {
      toastError(errorMessage(error), 'Could not change your favourites');
      void client.invalidateQueries({ queryKey: queryKeys.favourites });
    },
  });
  const { mutate } = mutation;
  return useCallback(
    (symbol: string, favourite: boolean) => {
      const now = client.getQueryData<FavouritesAnswer>(queryKeys.favourites)?.data ?? [];
      if (favourite && !now.includes(symbol) && now.length >= MAX_FAVOURITES) {
        toastError(FAVOURITES_FULL, 'Could not change your favourites');
        return;
      }
      mutate({ symbol, favourite });
    },
    [client, mutate],
  );
}
