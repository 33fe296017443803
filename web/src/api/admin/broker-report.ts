import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi, type CallInput, type CallOutput } from '../client';
import { adminQueryKeys } from './keys';

/** The broker's report (docs/api.md#broker-reports) for a range, a kind of account and a type. */

export type BrokerReport = CallOutput<'getBrokerReport'>;
export type BrokerReportQuery = CallInput<'getBrokerReport'>;

export function useBrokerReport(query: BrokerReportQuery, enabled: boolean) {
  return useQuery({
    queryKey: adminQueryKeys.brokerReport(query),
    queryFn: ({ signal }) => callApi('getBrokerReport', query, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
