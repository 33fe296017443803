import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AccountKind } from '@tradeport/contracts';
import { callApi, type CallOutput } from '../client';
import { adminQueryKeys } from './keys';

/** The broker's exposure (docs/api.md#exposure), re-read every few seconds while the page is open. */

export type Exposure = CallOutput<'getExposure'>;

/** How often the exposure is re-read: it moves with every price. */
export const EXPOSURE_REFETCH_MS = 5_000;

export function useExposure(accountKind: AccountKind) {
  return useQuery({
    queryKey: adminQueryKeys.exposure(accountKind),
    queryFn: ({ signal }) => callApi('getExposure', { accountKind }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: EXPOSURE_REFETCH_MS,
  });
}
