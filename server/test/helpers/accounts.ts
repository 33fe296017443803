import type { Db, Tx } from '../../src/storage/db';

/**
 * A person's first live trading account (the one sign-up opened): where tests that set a balance,
 * credit or leverage directly, or insert records, find the account id.
 */
export async function liveAccountOf(db: Db | Tx, userId: number): Promise<{ id: number; number: number; balanceCents: number; creditCents: number; leverage: number }> {
  const a = await db.selectFrom('trading_accounts').select(['id', 'number', 'balance_cents', 'credit_cents', 'leverage']).where('user_id', '=', userId).where('kind', '=', 'live').orderBy('id').executeTakeFirstOrThrow();
  return { id: a.id, number: Number(a.number), balanceCents: Number(a.balance_cents), creditCents: Number(a.credit_cents), leverage: a.leverage };
}

/** Sets columns of a person's first live account directly (a test's shortcut around the ledger, where it says so). */
export async function setAccount(db: Db | Tx, userId: number, values: { balance_cents?: number; credit_cents?: number; leverage?: number; state?: 'active' | 'close-only' | 'disabled' }): Promise<void> {
  const { id } = await liveAccountOf(db, userId);
  await db.updateTable('trading_accounts').set(values).where('id', '=', id).execute();
}
