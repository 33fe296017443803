import { createHash } from 'node:crypto';
import type { BusEvent } from '@tradeport/contracts';
import { isUniqueViolation, type Tx } from '../storage/db';
import { inTransaction, type ServiceContext } from './context';
import { refuse } from './errors';

/**
 * `Idempotency-Key` support for calls that create something. The key row is written in the same
 * transaction as what it creates, so a retry either finds the committed first result or races the
 * first attempt and loses on the primary key, then finds it. Only successful creations are kept:
 * a refused request changed nothing and may simply be retried.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;
/**
 * How long a key is kept: a retry within a day gets the first answer. A client retries within
 * seconds or minutes (a lost answer, a fail-over); a day covers a phone that was offline overnight,
 * and bounds the table, which every order with a key adds a row to. Pruned hourly, so a key is
 * gone between 24 and 25 hours after it was first used, and may then be used again.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;

/** Removes the keys older than `IDEMPOTENCY_KEY_TTL_MS` (run periodically); the number removed. */
export async function pruneIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  const result = await ctx.db.deleteFrom('idempotency_keys').where('created_at', '<=', ctx.now() - IDEMPOTENCY_KEY_TTL_MS).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const hashRequest = (body: unknown): string => createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');

export async function runIdempotent<T extends object>(
  ctx: ServiceContext,
  userId: number,
  key: string | undefined,
  route: string,
  request: unknown,
  create: (trx: Tx, emit: (e: BusEvent) => void) => Promise<T>,
): Promise<T> {
  if (key === undefined) return inTransaction(ctx, create);
  const requestHash = hashRequest(request);

  const replay = async (): Promise<T | null> => {
    const row = await ctx.db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
    if (!row) return null;
    if (row.route !== route || row.request_hash !== requestHash) {
      throw refuse.conflict('This Idempotency-Key was already used for a different request.');
    }
    return row.response_body === '' ? null : (JSON.parse(row.response_body) as T);
  };

  const first = await replay();
  if (first) return first;
  try {
    return await inTransaction(ctx, async (trx, emit) => {
      // The key is claimed before any check runs: a simultaneous retry blocks on this row (or, on
      // SQLite, waits for the transaction) and then replays the answer, instead of being judged
      // against the state the first attempt created.
      await trx
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key, route, request_hash: requestHash, response_body: '', created_at: ctx.now() })
        .execute();
      const result = await create(trx, emit);
      await trx.updateTable('idempotency_keys').set({ response_body: JSON.stringify(result) }).where('user_id', '=', userId).where('key', '=', key).execute();
      return result;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const again = await replay();
    if (again) return again;
    throw err;
  }
}
