import { z } from 'zod';
import { money, requestStatus } from './common';

/**
 * Account events, addressed to one user. The server publishes them on its event bus after the
 * transaction that caused them commits; the stream delivers them to that user's sockets only.
 */
export const moneyRequestEvent = z.object({
  type: z.literal('moneyRequest.updated'),
  userId: z.number(),
  requestId: z.number(),
  kind: z.enum(['deposit', 'withdrawal']),
  status: requestStatus,
  amount: money,
});

export const balanceEvent = z.object({
  type: z.literal('balance.changed'),
  userId: z.number(),
  balance: money,
  credit: money,
  reason: z.string(),
});

export const accountStatusEvent = z.object({
  type: z.literal('account.sessionsRevoked'),
  userId: z.number(),
  reason: z.string(),
});

export const accountEvent = z.discriminatedUnion('type', [moneyRequestEvent, balanceEvent, accountStatusEvent]);
export type AccountEvent = z.infer<typeof accountEvent>;
