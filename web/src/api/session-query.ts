import { queryOptions } from '@tanstack/react-query';
import { callApi } from './client';
import { queryKeys } from './query-keys';

/** The session check, apart from the other hooks: every route guard needs it before anything else. */
export const sessionQuery = queryOptions({
  queryKey: queryKeys.session,
  queryFn: ({ signal }) => callApi('testSession', undefined, { signal }),
  staleTime: 30_000,
});

export type Session = Awaited<ReturnType<typeof callApi<'testSession'>>>;
