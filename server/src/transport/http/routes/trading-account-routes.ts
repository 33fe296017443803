import { calls, type AccountTypeRow, type TradingAccount as AccountRow } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { formatCents } from '../../../domain/money';
import { isoTime } from '../../../services/context';
import { refuse } from '../../../services/errors';
import { installationTerms, listAccountTypes, saveAccountType, setAccountType, termsOf, typeInstrumentsOf, type AccountType, type InstallationTerms, type TypeInstruments } from '../../../services/account-types';
import { accountsOf, openAccount, setAccountState, tradingAccount, transferFunds, type TradingAccount } from '../../../services/trading-accounts';
import { repriced } from '../../../market/type-prices';
import { figureTexts } from '../../../trading/account-figures';
import type { TradingEngine } from '../../../trading/engine';
import { registerCall } from '../call-route';

/** An account as the API shows it: its row with its figures now, at the engine's prices. */
function accountAnswer(engine: TradingEngine, a: TradingAccount, primary: boolean, byType: ReadonlyMap<number, TypeInstruments>): AccountRow {
  const f = figureTexts(engine.figures(a.id, a.balanceCents, a.creditCents, a.leverage));
  return {
    id: a.id,
    number: a.number,
    kind: a.kind,
    currency: a.currency,
    leverage: a.leverage,
    state: a.state,
    balance: f.balance,
    credit: f.credit,
    profit: f.profit,
    equity: f.equity,
    margin: f.totalMargin,
    freeMargin: f.freeMargin,
    marginLevel: f.marginLevel,
    openPositions: engine.positionsOf(a.id).length,
    pendingOrders: engine.pendingOf(a.id).length,
    initialBalance: a.initialBalanceCents === null ? null : formatCents(a.initialBalanceCents),
    primary,
    typeId: a.typeId,
    type: a.typeName,
    commission: a.commission,
    symbolCommissions: byType.get(a.typeId)?.symbolCommissions ?? [],
    instruments: byType.get(a.typeId)?.instruments ?? null,
    leverageLimits: byType.get(a.typeId)?.leverageLimits ?? { groups: {}, symbols: {} },
    symbolSwaps: byType.get(a.typeId)?.symbolSwaps ?? [],
    symbolMarkups: byType.get(a.typeId)?.symbolMarkups ?? [],
    createdAt: isoTime(a.createdAt),
  };
}

/** An account type as the API shows it: its own values and what its accounts trade with. */
const typeAnswer = (t: AccountType & { accounts: number }, installation: InstallationTerms): AccountTypeRow => {
  const terms = termsOf(t, installation);
  return {
    id: t.id,
    name: t.name,
    kind: t.kind,
    leverage: t.leverage,
    marginCallLevel: t.marginCallLevel,
    stopOutLevel: t.stopOutLevel,
    tradingMode: t.tradingMode,
    commission: t.commission,
    symbolCommissions: t.symbolCommissions,
    instruments: t.instruments,
    leverageLimits: t.leverageLimits,
    symbolSwaps: t.symbolSwaps,
    symbolMarkups: t.symbolMarkups,
    isDefault: t.isDefault,
    state: t.state,
    effective: { leverage: terms.leverage, marginCallLevel: terms.marginCallLevel, stopOutLevel: terms.stopOutLevel },
    accounts: t.accounts,
    updatedAt: isoTime(t.updatedAt),
  };
};

/**
 * Trading accounts (docs/api.md#trading-accounts): a trader's own — list, open, reset a demo one,
 * transfer between live ones — and the back office's view of a trader's, with the state an
 * administrator may set. Figures come from the engine, so the calls that show them run on the
 * engine leader (cluster/engine-calls.ts).
 */
export function tradingAccountRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;

  const listOf = async (userId: number) => {
    const accounts = await accountsOf(ctx.db, userId);
    const primary = accounts.find((a) => a.kind === 'live')?.id;
    const symbols = await typeInstrumentsOf(ctx.db, accounts.map((a) => a.typeId));
    return {
      status: 'success' as const,
      data: accounts.map((a) => accountAnswer(engine, a, a.id === primary, symbols)),
      maxLive: ctx.config.maxLiveAccounts,
      maxDemo: ctx.config.maxDemoAccounts,
      demoInitialBalance: formatCents(ctx.config.demoInitialBalanceCents),
    };
  };
  /** The account as it is now, for the answer of a call that changed it. */
  const answerFor = async (accountId: number, message: string) => {
    const a = await tradingAccount(ctx.db, accountId);
    if (!a) throw refuse.notFound('That trading account was not found.');
    const primary = (await accountsOf(ctx.db, a.userId)).find((x) => x.kind === 'live')?.id === a.id;
    return { status: 'success' as const, message, account: accountAnswer(engine, a, primary, await typeInstrumentsOf(ctx.db, [a.typeId])) };
  };
  const name = (a: { kind: string; number: number }) => `${a.kind === 'live' ? 'Live' : 'Demo'} account ${a.number}`;

  registerCall(app, calls.getAccounts, async ({ session }) => listOf(session.userId));

  registerCall(app, calls.openAccount, async ({ body, actor, idempotencyKey }) => {
    const opened = await openAccount(ctx, actor, body.kind, idempotencyKey);
    return answerFor(opened.id, `${name(opened)} opened.`);
  });

  registerCall(app, calls.resetDemoAccount, async ({ body, actor }) => {
    await engine.resetDemo(body.accountId, actor.userId, { actorId: actor.userId, ip: actor.ip, admin: false });
    return answerFor(body.accountId, 'The demo account was reset.');
  });

  registerCall(app, calls.transferFunds, async ({ body, actor, idempotencyKey }) => transferFunds(ctx, actor, body, idempotencyKey));

  registerCall(app, calls.getTraderAccounts, async ({ query }) => {
    const user = await ctx.db.selectFrom('users').select('id').where('id', '=', query.traderId).executeTakeFirst();
    if (!user) throw refuse.notFound('User not found.');
    return listOf(user.id);
  });

  registerCall(app, calls.setAccountState, async ({ body, actor }) => {
    const a = await setAccountState(ctx, actor, body.accountId, body.state);
    return answerFor(a.id, `${name(a)} is ${body.state} now.`);
  });

  const installation = installationTerms(ctx.config);
  registerCall(app, calls.getAccountTypes, async () => ({
    status: 'success' as const,
    data: (await listAccountTypes(ctx.db)).map((t) => typeAnswer(t, installation)),
    installation: { leverage: installation.defaultLeverage, marginCallLevel: installation.marginCallLevel, stopOutLevel: installation.stopOutLevel },
  }));

  registerCall(app, calls.saveAccountType, async ({ body, actor }) => {
    // A markup that would take a bid to zero or below leaves the type without a price: refused.
    for (const m of body.symbolMarkups ?? []) {
      const q = app.market.book.get(m.symbol);
      const instrument = app.market.book.instruments.get(m.symbol);
      if (q && instrument && repriced(q.bid, q.ask, instrument, m.points) === null) throw refuse.invalid(`A markup of ${m.points} points on ${m.symbol} would take its bid to zero or below at the current price (${q.bid}).`);
    }
    const saved = await saveAccountType(ctx, actor, body, new Set(app.market.book.instruments.keys()));
    // Runs on the engine leader (an engine call): the sweep screens each account against its
    // type's margin-call level, re-read here at once rather than at the next resync.
    try {
      await engine.accountTypesChanged();
    } finally {
      // Every instance prices its stream with the type's markups from now on (told even if this engine's re-read failed).
      ctx.bus.publish({ type: 'accountTypes.changed' });
    }
    const row = (await listAccountTypes(ctx.db)).find((t) => t.id === saved.id);
    if (!row) throw refuse.notFound('That account type was not found.');
    return { status: 'success' as const, message: `Account type "${saved.name}" ${body.id === undefined ? 'created' : 'saved'}.`, data: typeAnswer(row, installation) };
  });

  // Runs on the engine leader (an engine call): the margin level at the new leverage is its
  // engine's, and the account is checked against its new levels at once.
  registerCall(app, calls.setAccountType, async ({ body, actor }) => {
    // The margin level is valued at the new type's leverage and under its leverage limits.
    const moved = await setAccountType(ctx, actor, body.accountId, body.typeId, async (trx, accountId, leverage) => {
      const a = await engine.account(accountId, trx);
      const at = engine.figures(accountId, a.balanceCents, a.creditCents, leverage, body.typeId);
      return { marginCents: Math.round(at.margin.toNumber() * 100), marginLevel: at.marginLevel.toNumber() };
    });
    engine.accountMoved(body.accountId, body.typeId);
    ctx.bus.publish({ type: 'account.changed', userId: moved.userId, accountId: body.accountId, change: 'type' });
    await engine.checkMargin(body.accountId);
    return answerFor(body.accountId, `Account ${moved.number} is of type "${moved.type.name}" now (leverage 1:${moved.leverage}).`);
  });

  registerCall(app, calls.adminResetDemoAccount, async ({ body, actor }) => {
    const a = await tradingAccount(ctx.db, body.accountId);
    if (!a) throw refuse.notFound(`Trading account #${body.accountId} was not found.`);
    await engine.resetDemo(a.id, a.userId, { actorId: actor.userId, ip: actor.ip, admin: true });
    return answerFor(a.id, `${name(a)} was reset.`);
  });
}
