import { calls, type WithdrawalRiskRow } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { formatCents } from '../../../domain/money';
import { addBalanceOperation, listBalanceOperations } from '../../../services/balance-operations';
import { addRequestNote, listRequestNotes } from '../../../services/money-request-notes';
import { prepared, rowLimit } from '../../../storage/prepared';
import { figureTexts, withdrawalFloor } from '../../../trading/account-figures';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/**
 * The back office's money tools: balance adjustments and credit, internal notes on money requests,
 * and the account figures beside the pending withdrawals. Admins only.
 */
export function backOfficeMoneyRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;

  registerCall(app, calls.addBalanceOperation, async ({ body, actor, idempotencyKey }) => addBalanceOperation(ctx, actor, body, idempotencyKey));

  registerCall(app, calls.getTraderBalanceOperations, async ({ query }) => ({ status: 'success' as const, ...(await listBalanceOperations(ctx, query.traderId, query.limit, query.offset)) }));

  registerCall(app, calls.addMoneyRequestNote, async ({ body, actor }) => ({ status: 'success' as const, message: 'Note added.', data: await addRequestNote(ctx, actor, body.requestId, body.note) }));

  registerCall(app, calls.getMoneyRequestNotes, async ({ query }) => successData(await listRequestNotes(ctx, query.requestId)));

  // The queue's requests with their accounts' balance rows, read in one statement.
  const pendingWithdrawals = prepared((db) =>
    db
      .selectFrom('money_requests as r')
      .innerJoin('trading_accounts as a', 'a.id', 'r.account_id')
      .select(['r.user_id', 'r.account_id', 'a.number', 'r.amount_cents', 'a.balance_cents', 'a.credit_cents', 'a.leverage'])
      .where('r.kind', '=', 'withdrawal')
      .where('r.status', '=', '0')
      .orderBy('r.id', 'asc')
      .limit(rowLimit(1000)),
  );
  // Runs on the engine leader (an engine call): the figures are its, at its prices, as the
  // approval that follows will see them.
  registerCall(app, calls.getWithdrawalRisk, async () => {
    // The accounts of the pending queue (its first 1,000 requests, as the queue itself shows).
    const queue = await pendingWithdrawals.all(ctx.db, {});
    const pending = new Map<number, { cents: number; row: (typeof queue)[number] }>();
    for (const r of queue) {
      const seen = pending.get(r.account_id);
      if (seen) seen.cents += Number(r.amount_cents);
      else pending.set(r.account_id, { cents: Number(r.amount_cents), row: r });
    }
    const data: WithdrawalRiskRow[] = [];
    for (const [accountId, { cents: pendingCents, row }] of pending) {
      const traderId = row.user_id;
      const state = engine.figures(accountId, Number(row.balance_cents), Number(row.credit_cents), row.leverage);
      const positions = engine.positionsOf(accountId);
      const texts = figureTexts(state);
      const floor = state.unvalued > 0 ? null : withdrawalFloor(state.margin, state.floating);
      data.push({
        traderId,
        accountNumber: Number(row.number),
        balance: texts.balance,
        credit: texts.credit,
        equity: texts.equity,
        margin: texts.totalMargin,
        freeMargin: texts.freeMargin,
        marginLevel: texts.marginLevel,
        floatingProfit: texts.profit,
        openPositions: positions.length,
        // Summed in hundredths of a lot (every volume step is), so 0.1 + 0.2 is 0.3.
        openVolume: positions.reduce((sum, p) => sum + Math.round(p.volume * 100), 0) / 100,
        pendingWithdrawals: formatCents(pendingCents),
        approvable: floor === null ? null : formatCents(Math.max(0, state.balanceCents - floor)),
        unvalued: state.unvalued,
      });
    }
    return { status: 'success' as const, data };
  });
}
