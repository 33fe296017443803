import { formatCents, formatUsd } from '../domain/money';
import { recordActivity } from '../services/activity';
import { recordAudit } from '../services/audit';
import { refuse } from '../services/errors';
import { lockAccount, postToLedger } from '../services/ledger';
import type { Closes } from './closes';
import type { EngineState } from './engine-state';
import type { PendingOrders } from './pending-orders';

/** Why a demo account's orders were cancelled. */
export const DEMO_RESET_REASON = 'Cancelled: the demo account was reset';

/**
 * Resetting a demo account: its open positions closed at the current prices and its pending
 * orders cancelled (both stay in its history, as closes and cancellations of their own), then its
 * balance brought back to the initial balance by one `demo` ledger entry that says so. Live
 * accounts are never reset.
 */
export class AccountResets {
  constructor(
    private readonly state: EngineState,
    private readonly closes: Closes,
    private readonly orders: PendingOrders,
  ) {}

  /**
   * Resets demo account `accountId` of `userId`; `by` is who asked (the trader, or an
   * administrator, whose reset is audited). Refused, with nothing done, while a position cannot be
   * closed (its market is closed or has no fresh price).
   */
  async resetDemo(accountId: number, userId: number, by: { actorId: number; ip: string; admin: boolean }): Promise<{ balanceCents: number }> {
    const { state } = this;
    const account = await state.ctx.db.selectFrom('trading_accounts').select(['kind', 'number', 'initial_balance_cents', 'user_id']).where('id', '=', accountId).executeTakeFirst();
    if (!account || account.user_id !== userId) throw refuse.notFound('That trading account was not found.');
    if (account.kind !== 'demo') throw refuse.invalid('Only a demo account can be reset.');
    const blocked = state.positionsOf(accountId).find((p) => state.untradableReason(p.symbol) !== null);
    if (blocked) throw refuse.invalid(`The demo account cannot be reset while its ${blocked.symbol} position cannot be closed (its market is closed or has no current price). Nothing was changed.`);
    for (const p of state.positionsOf(accountId)) {
      await this.closes.close(p.id, 'manual', { account: accountId, by: by.actorId }).catch((err: unknown) => {
        // Closed meanwhile (its stop loss, say): it is closed, which is what the reset wants.
        if (state.open.has(p.id)) throw err;
      });
    }
    await this.orders.cancelAllOf(accountId, DEMO_RESET_REASON);
    const initial = Number(account.initial_balance_cents ?? 0);
    return state.serialize(accountId, () =>
      state.transaction(async (trx, emit) => {
        await lockAccount(state.ctx, trx, accountId);
        const open = await trx.selectFrom('positions').select('id').where('account_id', '=', accountId).where('status', '=', 'open').executeTakeFirst();
        if (open || state.positionsOf(accountId).length > 0) throw refuse.conflict('A position was opened on the demo account during its reset; please try again.');
        const row = await trx.selectFrom('trading_accounts').select(['balance_cents', 'credit_cents']).where('id', '=', accountId).executeTakeFirstOrThrow();
        const balance = Number(row.balance_cents);
        const now = state.ctx.now();
        const resets = await trx.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('kind', '=', 'demo').executeTakeFirstOrThrow();
        const memo = `Demo account reset to ${formatUsd(initial)}`;
        let after = balance;
        if (initial !== balance) {
          const posted = await postToLedger(trx, { accountId, userId, kind: 'demo', amountCents: initial - balance, refType: 'demo_account', refId: `${accountId}:${Number(resets.n)}`, memo, at: now });
          if (!posted) throw new Error(`demo reset of account ${accountId} could not be posted`);
          after = posted.balanceCents;
          emit({ type: 'balance.changed', userId, accountId, balance: formatCents(posted.balanceCents), credit: formatCents(posted.creditCents), reason: 'demo-reset', amount: formatCents(initial - balance), memo });
        }
        if (by.admin) await recordAudit(trx, { actorId: by.actorId, action: 'account.resetDemo', targetType: 'trading_account', targetId: accountId, subjectUserId: userId, before: { balance: formatCents(balance) }, after: { balance: formatCents(after), number: Number(account.number) }, ip: by.ip, at: now });
        await recordActivity(trx, { userId, kind: 'demo-account-reset', details: `Demo account ${Number(account.number)} reset to ${formatUsd(initial)}`, status: 'Success', ip: by.ip, at: now });
        emit({ type: 'account.changed', userId, accountId, change: 'reset' });
        return { balanceCents: after };
      }),
    );
  }
}
