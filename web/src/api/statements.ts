import { useQuery } from '@tanstack/react-query';
import { callApi, type CallInput, type CallOutput } from './client';

/** Account statements (docs/api.md#statements): the account the screens show, over UTC days. */

export type Statement = CallOutput<'getStatement'>['data'];
export type StatementQuery = CallInput<'getStatement'>;

/** The statement of `accountId` (the account the calls act on) for a range; none while `query` is null. */
export function useStatement(accountId: number | null, query: StatementQuery | null) {
  return useQuery({
    queryKey: ['statement', accountId, query?.from, query?.to] as const,
    queryFn: ({ signal }) => callApi('getStatement', query!, { signal }),
    enabled: accountId !== null && query !== null,
    select: (answer) => answer.data,
  });
}
