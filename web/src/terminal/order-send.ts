import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../api/client';
import { queryKeys } from '../api/query-keys';
import type { OrderRequest } from './order-rules';

/**
 * An `Idempotency-Key`: random, 32 hex digits. `crypto.randomUUID` exists only in secure contexts,
 * and a self-hosted terminal may be opened over plain HTTP on a LAN, so the key is built from
 * `getRandomValues`, which every browser has.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One key per intent: the same key while the form (its revision) and the side are unchanged, so a
 * double click or a retry of the same order replays the first answer instead of opening a second
 * position; a new key after any edit.
 */
export class IntentKeys {
  private readonly keys = new Map<string, string>();
  keyFor(revision: number, side: string): string {
    const id = `${revision}:${side}`;
    let key = this.keys.get(id);
    if (!key) {
      key = newIdempotencyKey();
      this.keys.set(id, key);
    }
    return key;
  }
}

export type OrderResult = { kind: 'position'; ticket: number; message: string } | { kind: 'pending'; orderId: number; message: string };

async function send(request: OrderRequest, key: string): Promise<OrderResult> {
  if (request.call === 'addTrades') {
    const answer = await callApi('addTrades', request.body, { idempotencyKey: key });
    return { kind: 'position', ticket: answer.ticket, message: answer.message };
  }
  const answer = await callApi('addPendingOrder', request.body, { idempotencyKey: key });
  return { kind: 'pending', orderId: answer.orderId, message: answer.message };
}

/** Sends an order (market or pending) with its intent's key; the account's lists are read again after. */
export function useSendOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['send-order'],
    mutationFn: ({ request, key }: { request: OrderRequest; key: string }) => send(request, key),
    onSettled: () => Promise.all([queryKeys.trades, queryKeys.pendingOrders, queryKeys.margins, queryKeys.profile].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}
