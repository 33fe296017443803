import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi, type CallOutput } from '../client';
import { adminQueryKeys, type AuditPage } from './keys';

export type AuditEntry = CallOutput<'getAuditLog'>['data'][number];

/** The audit log, filtered, one page at a time; one extra entry is asked for to know whether another page exists. */
export function useAuditLog(page: AuditPage, enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.auditLogPage(page),
    queryFn: ({ signal }) => callApi('getAuditLog', { ...page.filters, limit: page.limit + 1, before: page.before }, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
