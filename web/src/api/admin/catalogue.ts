import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InstrumentInput } from '@tradeport/contracts';
import { callApi, type CallOutput } from '../client';
import { queryKeys } from '../query-keys';
import { invalidate, withRows, type Listing } from './cache';
import { adminQueryKeys } from './keys';

/** The instrument catalogue (docs/api.md#instrument-catalogue): every instrument as stored, and one changed. */

export type CatalogueRow = CallOutput<'getCatalogue'>['data'][number];

export function useCatalogue() {
  return useQuery({ queryKey: adminQueryKeys.catalogue, queryFn: ({ signal }) => callApi('getCatalogue', undefined, { signal }) });
}

/**
 * Saves an instrument's editable values. Its row shows the saved values at once; then the
 * catalogue, the symbol list (digits, volumes and sessions the back office's pickers use, and the
 * terminal's) and the audit log are read again.
 */
export function useSaveInstrument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InstrumentInput) => callApi('saveInstrument', input),
    onSuccess: (answer) => {
      client.setQueryData<Listing<CatalogueRow>>(adminQueryKeys.catalogue, (old) => old && withRows(old, (rows) => rows.map((r) => (r.symbol === answer.data.symbol ? answer.data : r))));
    },
    onSettled: () => invalidate(client, [adminQueryKeys.catalogue, queryKeys.symbols, adminQueryKeys.auditLog]),
  });
}
