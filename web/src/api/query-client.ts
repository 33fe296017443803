import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A refusal will not change on retry; a network failure may.
      retry: (count, error) => !(error instanceof ApiError && error.httpStatus >= 400 && error.httpStatus < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
});
