import { rowLimit } from '../storage/prepared';
import type { AddBalanceOperationRequest, BalanceOperationRow, BalanceOperationType } from '@tradeport/contracts';
import { sql } from 'kysely';
import { formatCents, formatUsd, toCents } from '../domain/money';
import { recordActivity, type ActivityKind } from './activity';
import { recordAudit } from './audit';
import { isoTime, type Actor, type ServiceContext } from './context';
import { refuse } from './errors';
import { runIdempotent } from './idempotency';
import { lockAccount, postToLedger } from './ledger';
import { primaryAccount, tradingAccount } from './trading-accounts';

/**
 * The back office's manual balance operations: an adjustment moves the trader's balance, a credit
 * operation their credit (bonus) bucket, by a signed amount with a reason the trader is shown.
 *
 * Each is one `balance_operations` row and one ledger entry of its kind (`adjustment` or
 * `credit`, referring to that row), written in one transaction with the audit entry and the
 * trader's activity entry, so the balance and the credit stay the sums of their entries. Taking
 * money away is refused when it would leave the balance (or the credit) below zero; adding is
 * always allowed, also to a balance a loss has left negative. The margin monitor hears the
 * `balance.changed` event and looks at the account again at once: a removal can bring a margin
 * call or a stop-out, as a loss would. Credit counts in equity and free margin (the trading
 * model), never in what a withdrawal may take.
 */

const TYPE_LABEL: Record<BalanceOperationType, { bucket: string; activity: (cents: number) => ActivityKind; audit: string }> = {
  adjustment: { bucket: 'balance', activity: () => 'balance-adjusted', audit: 'balance.adjust' },
  credit: { bucket: 'credit', activity: (cents) => (cents > 0 ? 'credit-granted' : 'credit-removed'), audit: 'credit.adjust' },
};

/** "+50.00 USD" / "−1,250.00 USD": a signed amount as people read it in messages. */
const signedUsd = (cents: number) => `${cents > 0 ? '+' : '-'}${formatUsd(Math.abs(cents))}`;

export async function addBalanceOperation(ctx: ServiceContext, actor: Actor, input: AddBalanceOperationRequest, idempotencyKey: string | undefined) {
  const cents = toCents(input.amount);
  const type = input.type;
  const label = TYPE_LABEL[type];
  const limit = ctx.config.maxDepositCents;
  if (Math.abs(cents) > limit) throw refuse.invalid(`An adjustment or credit is at most ${formatUsd(limit)} either way.`);
  return runIdempotent(ctx, actor.userId, idempotencyKey, 'addBalanceOperation', input, async (trx, emit) => {
    const trader = await trx.selectFrom('users').select(['id', 'role', 'first_name', 'last_name']).where('id', '=', input.traders_id).executeTakeFirst();
    if (!trader) throw refuse.notFound(`Trader #${input.traders_id} was not found.`);
    if (trader.role !== 'trader') throw refuse.invalid('Only a trader account has a balance and credit to adjust.');
    // The account named, or the trader's first live account: the one the spec's single balance is.
    const account = input.accountId === undefined ? await primaryAccount(trx, trader.id) : await tradingAccount(trx, input.accountId);
    if (!account || account.userId !== trader.id) throw input.accountId === undefined ? refuse.invalid('This trader holds no live trading account to adjust.') : refuse.notFound('That trading account is not one of this trader\'s.');
    if (account.kind !== 'live') throw refuse.invalid('A demo account holds virtual money: reset it instead of adjusting it.');
    // The account's orders, withdrawals and their approvals take the same lock: one change at a time.
    await lockAccount(ctx, trx, account.id);
    const now = ctx.now();
    const row = await trx
      .insertInto('balance_operations')
      .values({ user_id: trader.id, account_id: account.id, kind: type, amount_cents: cents, reason: input.reason, created_by: actor.userId, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Only a removal has a floor: money added to a negative balance (after a loss) is still added.
    const posted = await postToLedger(trx, { accountId: account.id, userId: trader.id, kind: type, amountCents: cents, refType: 'balance_operation', refId: row.id, memo: input.reason, at: now, ...(cents < 0 ? { floorCents: 0 } : {}) });
    if (!posted) {
      const current = await trx.selectFrom('trading_accounts').select(['balance_cents', 'credit_cents']).where('id', '=', account.id).executeTakeFirstOrThrow();
      const have = Number(type === 'credit' ? current.credit_cents : current.balance_cents);
      throw refuse.conflict(`Removing ${formatUsd(-cents)} would take the trader's ${label.bucket} below zero: it is ${formatUsd(have)}. Nothing was changed.`);
    }
    const before = { balance: formatCents(posted.balanceCents - (type === 'adjustment' ? cents : 0)), credit: formatCents(posted.creditCents - (type === 'credit' ? cents : 0)) };
    const after = { balance: formatCents(posted.balanceCents), credit: formatCents(posted.creditCents) };
    await recordAudit(trx, {
      actorId: actor.userId,
      action: label.audit,
      targetType: 'user',
      targetId: trader.id,
      before: type === 'credit' ? { credit: before.credit } : { balance: before.balance },
      after: { ...(type === 'credit' ? { credit: after.credit } : { balance: after.balance }), amount: formatCents(cents), reason: input.reason, operation: row.id, account: account.number },
      ip: actor.ip,
      at: now,
      subjectUserId: trader.id,
      subjectAccountId: account.id,
    });
    await recordActivity(trx, { userId: trader.id, kind: label.activity(cents), details: `${signedUsd(cents)}: ${input.reason}`, status: 'Applied', ip: actor.ip, at: now });
    emit({ type: 'balance.changed', userId: trader.id, accountId: account.id, balance: after.balance, credit: after.credit, reason: type, amount: formatCents(cents), memo: input.reason });
    const name = `${trader.first_name} ${trader.last_name}`.trim();
    const message =
      type === 'adjustment' ? `Balance of ${name} adjusted by ${signedUsd(cents)}; it is now ${formatUsd(posted.balanceCents)}.` : `Credit of ${name} ${cents > 0 ? 'increased' : 'reduced'} by ${formatUsd(Math.abs(cents))}; it is now ${formatUsd(posted.creditCents)}.`;
    return { status: 'success' as const, message, id: row.id, balance: after.balance, credit: after.credit };
  });
}

/**
 * A trader's balance operations, newest first, each with the bucket's amount right after it (from
 * its ledger entry) and the administrator who made it.
 */
export async function listBalanceOperations(ctx: ServiceContext, traderId: number, limit: number, offset: number): Promise<{ total: number; data: BalanceOperationRow[] }> {
  const user = await ctx.db.selectFrom('users').select('id').where('id', '=', traderId).executeTakeFirst();
  if (!user) throw refuse.notFound('User not found.');
  const count = await ctx.db.selectFrom('balance_operations').select(sql<number>`count(*)`.as('n')).where('user_id', '=', traderId).executeTakeFirstOrThrow();
  const rows = await ctx.db
    .selectFrom('balance_operations as o')
    .innerJoin('users as a', 'a.id', 'o.created_by')
    .innerJoin('trading_accounts as t', 't.id', 'o.account_id')
    // The entry's kind is the operation's, and its ref the operation: one row each (unique index).
    .innerJoin('ledger_entries as l', (join) => join.onRef('l.kind', '=', 'o.kind').on('l.ref_type', '=', 'balance_operation').onRef('l.ref_id', '=', sql<string>`cast(o.id as varchar(64))`))
    .select(['o.id', 'o.kind', 'o.amount_cents', 'o.reason', 'o.created_at', 'a.email', 'l.balance_after_cents', 't.number as account_number'])
    .where('o.user_id', '=', traderId)
    .orderBy('o.id', 'desc')
    .limit(rowLimit(limit))
    .offset(offset)
    .execute();
  return {
    total: Number(count.n),
    data: rows.map((r) => ({ id: r.id, type: r.kind, accountNumber: Number(r.account_number), amount: formatCents(r.amount_cents), after: formatCents(r.balance_after_cents), reason: r.reason, timeStamp: isoTime(r.created_at), createdBy: r.email })),
  };
}
