import type { TransferRequest } from '@tradeport/contracts';
import { sql, type Selectable } from 'kysely';
import { randomInt } from 'node:crypto';
import { drawAccountNumber } from '../domain/account-number';
import { formatCents, formatUsd, toCents, type Cents } from '../domain/money';
import type { Db, Tx } from '../storage/db';
import { prepared, rowLimit, type Param } from '../storage/prepared';
import type { AccountKind, AccountState, AccountTypesTable, TradingAccountsTable } from '../storage/schema';
import { commissionOf, defaultAccountType } from './account-types';
import type { CommissionSchedule } from '@tradeport/trading-math';
import { recordActivity } from './activity';
import { recordAudit } from './audit';
import { inTransaction, type Actor, type ServiceContext } from './context';
import { refuse } from './errors';
import { runIdempotent } from './idempotency';
import { lockAccount, lockUser, postToLedger } from './ledger';
import { withdrawableFunds } from './money-requests';

/**
 * Trading accounts (docs/design.md#trading-accounts): the accounts a person holds, each with its
 * own number, kind, leverage, balance, credit and records. This module opens them and finds them;
 * their money moves only through the ledger (ledger.ts), their positions only through the engine.
 */
export interface TradingAccount {
  id: number;
  number: number;
  userId: number;
  kind: AccountKind;
  currency: string;
  leverage: number;
  balanceCents: Cents;
  creditCents: Cents;
  state: AccountState;
  /** A demo account's virtual balance at opening; null for live. */
  initialBalanceCents: Cents | null;
  /** Its account type (account-types.ts) and the type's name. */
  typeId: number;
  typeName: string;
  /** The type's commission on each deal; null: none. */
  commission: CommissionSchedule | null;
  createdAt: number;
}

const COLUMNS = ['id', 'number', 'user_id', 'kind', 'currency', 'leverage', 'balance_cents', 'credit_cents', 'state', 'initial_balance_cents', 'account_type_id', 'created_at'] as const;
type Row = Pick<Selectable<TradingAccountsTable>, (typeof COLUMNS)[number]> & Pick<Selectable<AccountTypesTable>, 'commission_basis' | 'commission_cents'> & { type_name: string };

const accountOfRow = (r: Row): TradingAccount => ({
  id: r.id,
  number: Number(r.number),
  userId: r.user_id,
  kind: r.kind,
  currency: r.currency,
  leverage: r.leverage,
  balanceCents: Number(r.balance_cents),
  creditCents: Number(r.credit_cents),
  state: r.state,
  initialBalanceCents: r.initial_balance_cents === null ? null : Number(r.initial_balance_cents),
  typeId: r.account_type_id,
  typeName: r.type_name,
  commission: commissionOf(r.commission_basis, r.commission_cents),
  createdAt: Number(r.created_at),
});

/** Accounts with their type's name and commission (one row each: every account has a type). */
const accounts = (db: Db | Tx) =>
  db
    .selectFrom('trading_accounts')
    .innerJoin('account_types as t', 't.id', 'trading_accounts.account_type_id')
    .select(COLUMNS.map((c) => `trading_accounts.${c}` as const))
    .select(['t.name as type_name', 't.commission_basis', 't.commission_cents']);

const byId = prepared((db, param: Param<{ accountId: number }>) => accounts(db).where('trading_accounts.id', '=', param('accountId')));
const firstLive = prepared((db, param: Param<{ userId: number }>) =>
  accounts(db).where('trading_accounts.user_id', '=', param('userId')).where('trading_accounts.kind', '=', 'live').orderBy('trading_accounts.id').limit(rowLimit(1)),
);

/** The account with this id, or undefined. */
export async function tradingAccount(db: Db | Tx, accountId: number): Promise<TradingAccount | undefined> {
  const row = await byId.first(db, { accountId });
  return row ? accountOfRow(row) : undefined;
}

const ofUser = prepared((db, param: Param<{ userId: number }>) => accounts(db).where('trading_accounts.user_id', '=', param('userId')).orderBy('trading_accounts.id'));

/** Every trading account a person holds, in the order they were opened. */
export async function accountsOf(db: Db | Tx, userId: number): Promise<TradingAccount[]> {
  return (await ofUser.all(db, { userId })).map(accountOfRow);
}

/**
 * A person's first live account (the one sign-up opened), or undefined when they hold none (an
 * administrator): the account a call acts on when it names none.
 */
export async function primaryAccount(db: Db | Tx, userId: number): Promise<TradingAccount | undefined> {
  const row = await firstLive.first(db, { userId });
  return row ? accountOfRow(row) : undefined;
}

/**
 * The SQL of a person's primary account id, for a query that reads it with something else (the
 * session lookup); `userId` is the outer query's column holding the person's id.
 */
export const primaryAccountIdOf = (userId: string) =>
  sql<number | null>`(select min(a.id) from trading_accounts a where a.user_id = ${sql.ref(userId)} and a.kind = 'live')`;

/**
 * The ids of all of a person's accounts, in id order, as one text ("12,15"), for a query that reads
 * them with something else (the session lookup); `userId` as for `primaryAccountIdOf`.
 */
export const accountIdsOf = (userId: string, engine: 'sqlite' | 'postgres') =>
  engine === 'postgres'
    ? sql<string | null>`(select string_agg(cast(a.id as varchar), ',' order by a.id) from trading_accounts a where a.user_id = ${sql.ref(userId)})`
    : sql<string | null>`(select group_concat(id) from (select a.id from trading_accounts a where a.user_id = ${sql.ref(userId)} order by a.id))`;

/** The ids `accountIdsOf` wrote. */
export const parseAccountIds = (text: string | null): number[] => (text === null || text === '' ? [] : text.split(',').map(Number));

/**
 * The leverage of a person's primary account, for a query over users (`userId`: the outer query's
 * column of the person's id); null when they hold none.
 */
export const primaryLeverageOf = (userId: string) =>
  sql<number | null>`(select a.leverage from trading_accounts a where a.user_id = ${sql.ref(userId)} and a.kind = 'live' order by a.id limit 1)`;

/** How many times a number is drawn before giving up: a collision among 90 million numbers is rare. */
const NUMBER_DRAWS = 20;

/**
 * Opens a trading account for `userId` in the caller's transaction: a fresh number, no money (a
 * demo account's virtual balance is posted to its ledger by the caller), active, of its kind's
 * default type and at that type's leverage (`defaultLeverage`, the installation's, when the type
 * sets none).
 */
export async function openTradingAccount(trx: Tx, o: { userId: number; kind: AccountKind; defaultLeverage: number; initialBalanceCents?: Cents | null; now: number }): Promise<TradingAccount> {
  const type = await defaultAccountType(trx, o.kind);
  const leverage = type.leverage ?? o.defaultLeverage;
  for (let draw = 0; draw < NUMBER_DRAWS; draw += 1) {
    const number = drawAccountNumber(randomInt);
    const taken = await trx.selectFrom('trading_accounts').select('id').where('number', '=', number).executeTakeFirst();
    if (taken) continue;
    const row = await trx
      .insertInto('trading_accounts')
      .values({ number, user_id: o.userId, kind: o.kind, currency: 'USD', leverage, balance_cents: 0, credit_cents: 0, state: 'active', initial_balance_cents: o.initialBalanceCents ?? null, account_type_id: type.id, created_at: o.now, updated_at: o.now })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return accountOfRow({ ...row, type_name: type.name, commission_basis: type.commission ? type.commission.basis : null, commission_cents: type.commission ? Math.round(type.commission.amount * 100) : null });
  }
  throw new Error('no free trading-account number found');
}

/** "Live account 12345678" / "Demo account 12345678": an account as messages name it. */
export const accountName = (a: { kind: AccountKind; number: number }): string => `${a.kind === 'live' ? 'Live' : 'Demo'} account ${a.number}`;

const countOfKind = prepared((db, param: Param<{ userId: number; kind: AccountKind }>) =>
  db.selectFrom('trading_accounts').select(sql<number>`count(*)`.as('n')).where('user_id', '=', param('userId')).where('kind', '=', param('kind')),
);

/**
 * Opens another trading account for the trader: a live one (no money until a deposit or a transfer)
 * or a demo one, funded with its virtual balance by a `demo` ledger entry; up to the configured
 * number of each kind. Each of its kind's default type. With an Idempotency-Key a retry opens nothing.
 */
export async function openAccount(ctx: ServiceContext, actor: Actor, kind: AccountKind, idempotencyKey: string | undefined): Promise<TradingAccount> {
  return runIdempotent(ctx, actor.userId, idempotencyKey, 'openAccount', { kind }, async (trx, emit) => {
    // One opening at a time per person, so two at once cannot both pass the count.
    await lockUser(ctx, trx, actor.userId);
    const max = kind === 'live' ? ctx.config.maxLiveAccounts : ctx.config.maxDemoAccounts;
    const held = Number((await countOfKind.first(trx, { userId: actor.userId, kind }))?.n ?? 0);
    if (held >= max) throw refuse.conflict(max === 0 ? 'Demo accounts are not offered here.' : `You already hold ${held} ${kind} account${held === 1 ? '' : 's'}, the most allowed.`);
    const now = ctx.now();
    const initial = kind === 'demo' ? ctx.config.demoInitialBalanceCents : null;
    const account = await openTradingAccount(trx, { userId: actor.userId, kind, defaultLeverage: ctx.config.defaultLeverage, initialBalanceCents: initial, now });
    let funded = account;
    if (initial !== null && initial > 0) {
      const posted = await postToLedger(trx, { accountId: account.id, userId: actor.userId, kind: 'demo', amountCents: initial, refType: 'demo_account', refId: `${account.id}:0`, memo: 'Virtual balance of a new demo account', at: now });
      if (posted) funded = { ...account, balanceCents: posted.balanceCents };
    }
    await recordActivity(trx, { userId: actor.userId, kind: 'trading-account-opened', details: `${accountName(account)} opened`, status: 'Success', ip: actor.ip, at: now });
    emit({ type: 'account.changed', userId: actor.userId, accountId: account.id, change: 'opened' });
    return funded;
  });
}

/**
 * The back office makes an account active, close-only or disabled: audited with before and after,
 * and the trader's screens told. Nothing else changes: open positions stay, and stops, take
 * profits and stop-outs still close them.
 */
export async function setAccountState(ctx: ServiceContext, actor: Actor, accountId: number, state: AccountState): Promise<TradingAccount> {
  return inTransaction(ctx, async (trx, emit) => {
    const before = await tradingAccount(trx, accountId);
    if (!before) throw refuse.notFound(`Trading account #${accountId} was not found.`);
    const now = ctx.now();
    if (before.state === state) return before;
    await trx.updateTable('trading_accounts').set({ state, updated_at: now }).where('id', '=', accountId).execute();
    await recordAudit(trx, { actorId: actor.userId, action: 'account.state', targetType: 'trading_account', targetId: accountId, subjectUserId: before.userId, before: { state: before.state }, after: { state, number: before.number }, ip: actor.ip, at: now });
    await recordActivity(trx, { userId: before.userId, kind: 'trading-account-state', details: `${accountName(before)}: ${state}`, status: 'Applied', ip: actor.ip, at: now });
    emit({ type: 'account.changed', userId: before.userId, accountId, change: 'state' });
    return { ...before, state };
  });
}

/**
 * Moves money between two of the trader's own live accounts: one `transfers` row and a `transfer`
 * entry on each side, in one transaction, exactly once with an Idempotency-Key. The source may
 * give what a withdrawal could take (its balance less the margin its positions need and its pending
 * withdrawals), so a transfer never leaves its positions short of margin.
 */
export async function transferFunds(ctx: ServiceContext, actor: Actor, input: TransferRequest, idempotencyKey: string | undefined) {
  const cents = toCents(input.amount);
  if (cents <= 0) throw refuse.invalid('Please enter an amount above zero.');
  if (input.fromAccountId === input.toAccountId) throw refuse.invalid('Please choose two different accounts.');
  return runIdempotent(ctx, actor.userId, idempotencyKey, 'transferFunds', input, async (trx, emit) => {
    const from = await tradingAccount(trx, input.fromAccountId);
    const to = await tradingAccount(trx, input.toAccountId);
    if (!from || from.userId !== actor.userId) throw refuse.notFound('The account to transfer from was not found.');
    if (!to || to.userId !== actor.userId) throw refuse.notFound('The account to transfer to was not found.');
    if (from.kind !== 'live' || to.kind !== 'live') throw refuse.invalid('Transfers are between live accounts only: a demo account holds virtual money.');
    if (from.state === 'disabled' || to.state === 'disabled') throw refuse.invalid('A disabled account can take part in no transfer. Please contact support.');
    // Both locks, lower id first: two transfers in opposite directions cannot wait on each other.
    for (const id of [from.id, to.id].sort((a, b) => a - b)) await lockAccount(ctx, trx, id);
    const funds = await withdrawableFunds(ctx, trx, from.id);
    if (cents > funds.withdrawableCents) {
      throw refuse.invalid(`${accountName(from)} can transfer at most ${formatUsd(Math.max(0, funds.withdrawableCents))} now: the rest is needed as margin by its open positions${funds.pendingCents > 0 ? ' or set aside for pending withdrawals' : ''}.`);
    }
    const now = ctx.now();
    const row = await trx.insertInto('transfers').values({ user_id: actor.userId, from_account_id: from.id, to_account_id: to.id, amount_cents: cents, created_at: now }).returning('id').executeTakeFirstOrThrow();
    const out = await postToLedger(trx, { accountId: from.id, userId: actor.userId, kind: 'transfer', amountCents: -cents, refType: 'transfer_out', refId: row.id, memo: `Transfer #${row.id} to ${accountName(to)}`, at: now });
    const into = await postToLedger(trx, { accountId: to.id, userId: actor.userId, kind: 'transfer', amountCents: cents, refType: 'transfer_in', refId: row.id, memo: `Transfer #${row.id} from ${accountName(from)}`, at: now });
    if (!out || !into) throw new Error(`transfer #${row.id} could not be posted`);
    await recordActivity(trx, { userId: actor.userId, kind: 'funds-transferred', details: `${formatUsd(cents)} from ${accountName(from)} to ${accountName(to)}`, status: 'Success', ip: actor.ip, at: now });
    for (const [account, posted] of [[from, out], [to, into]] as const) {
      emit({ type: 'balance.changed', userId: actor.userId, accountId: account.id, balance: formatCents(posted.balanceCents), credit: formatCents(posted.creditCents), reason: 'transfer', amount: formatCents(account === from ? -cents : cents) });
      emit({ type: 'account.changed', userId: actor.userId, accountId: account.id, change: 'transfer' });
    }
    return { status: 'success' as const, message: `${formatUsd(cents)} moved from ${accountName(from)} to ${accountName(to)}.`, id: row.id, fromBalance: formatCents(out.balanceCents), toBalance: formatCents(into.balanceCents) };
  });
}
