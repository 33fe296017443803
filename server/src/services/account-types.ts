import type { AccountKind, AccountTypeInput } from '@tradeport/contracts';
import type { CommissionSchedule, LeverageLimits } from '@tradeport/trading-math';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db, Tx } from '../storage/db';
import { prepared, type Param } from '../storage/prepared';
import type { AccountTypesTable } from '../storage/schema';
import { recordAudit } from './audit';
import type { Actor, ServiceContext } from './context';
import { refuse } from './errors';
import { lockAccount } from './ledger';

/**
 * Account types (docs/design.md#account-types): what a broker sells. A type may set a leverage for
 * the accounts it is given, margin-call and stop-out levels and a trading mode; **a value it leaves
 * unset is the installation's** (`DEFAULT_LEVERAGE`, `MARGIN_CALL_LEVEL`, `STOP_OUT_LEVEL`) — the one
 * inheritance rule. Each kind (live, demo) has one default type, which new accounts of the kind get.
 */

export type TradingMode = AccountTypesTable['trading_mode'];

/** Swaps on one instrument (points per lot a day), in place of the catalogue's. */
export interface SymbolSwap {
  symbol: string;
  swapLong: number;
  swapShort: number;
}

/** A spread markup on one instrument (whole points), in place of the catalogue's. */
export interface SymbolMarkup {
  symbol: string;
  points: number;
}

/** A commission on one instrument, in place of the type's own there. */
export interface SymbolCommission {
  symbol: string;
  commission: CommissionSchedule;
}

export interface AccountType {
  id: number;
  name: string;
  kind: AccountKind;
  /** As set on the type; null: the installation's. */
  leverage: number | null;
  marginCallLevel: number | null;
  stopOutLevel: number | null;
  tradingMode: TradingMode;
  /** Charged on each deal; null: none (the catalogue charges none). `amount` in USD. */
  commission: CommissionSchedule | null;
  /** Instruments charged a commission of their own instead, by symbol. */
  symbolCommissions: SymbolCommission[];
  /** The instruments it may trade, by symbol; null: every instrument of the catalogue. */
  instruments: string[] | null;
  /** The most leverage it allows by group and by instrument. */
  leverageLimits: LeverageLimits;
  /** Instruments whose swaps are its own, not the catalogue's. */
  symbolSwaps: SymbolSwap[];
  /** Instruments whose spread markup is its own, not the catalogue's. */
  symbolMarkups: SymbolMarkup[];
  isDefault: boolean;
  state: 'active' | 'disabled';
  createdAt: number;
  updatedAt: number;
}

/** The values an account of a type trades with: the type's, else the installation's. */
export interface AccountTerms {
  leverage: number;
  marginCallLevel: number;
  stopOutLevel: number;
  tradingMode: TradingMode;
}

/** What the installation sets, which a type's unset values fall back to. */
export interface InstallationTerms {
  defaultLeverage: number;
  marginCallLevel: number;
  stopOutLevel: number;
}

export const installationTerms = (config: { defaultLeverage: number; trading: { marginCallLevel: number; stopOutLevel: number } }): InstallationTerms => ({
  defaultLeverage: config.defaultLeverage,
  marginCallLevel: config.trading.marginCallLevel,
  stopOutLevel: config.trading.stopOutLevel,
});

/** The inheritance rule: each value the type sets, else the installation's. */
export function termsOf(t: Pick<AccountType, 'leverage' | 'marginCallLevel' | 'stopOutLevel' | 'tradingMode'>, installation: InstallationTerms): AccountTerms {
  return {
    leverage: t.leverage ?? installation.defaultLeverage,
    marginCallLevel: t.marginCallLevel ?? installation.marginCallLevel,
    stopOutLevel: t.stopOutLevel ?? installation.stopOutLevel,
    tradingMode: t.tradingMode,
  };
}

const COLUMNS = ['id', 'name', 'kind', 'leverage', 'margin_call_level', 'stop_out_level', 'trading_mode', 'commission_basis', 'commission_cents', 'is_default', 'state', 'created_at', 'updated_at'] as const;
type Row = Pick<Selectable<AccountTypesTable>, (typeof COLUMNS)[number]>;
const level = (v: number | string | null) => (v === null ? null : Number(v));
/** A commission as stored (cents per lot or per million) as the math takes it (USD); null: none. */
export const commissionOf = (basis: 'lot' | 'million' | null, cents: number | string | null): CommissionSchedule | null =>
  basis === null || cents === null ? null : { basis, amount: Number(cents) / 100 };
/** A type's terms by instrument: commissions of their own, the instruments it offers and its leverage limits. */
export interface TypeInstruments {
  symbolCommissions: SymbolCommission[];
  /** Null: every instrument (none listed). */
  instruments: string[] | null;
  leverageLimits: LeverageLimits;
  symbolSwaps: SymbolSwap[];
  symbolMarkups: SymbolMarkup[];
}
const noLimits = (): { symbols: Record<string, number>; groups: Record<string, number> } => ({ symbols: {}, groups: {} });
const EVERY_INSTRUMENT: TypeInstruments = { symbolCommissions: [], instruments: null, leverageLimits: noLimits(), symbolSwaps: [], symbolMarkups: [] };

const typeOfRow = (r: Row, { symbolCommissions, instruments, leverageLimits, symbolSwaps, symbolMarkups }: TypeInstruments = EVERY_INSTRUMENT): AccountType => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  leverage: r.leverage,
  marginCallLevel: level(r.margin_call_level),
  stopOutLevel: level(r.stop_out_level),
  tradingMode: r.trading_mode,
  commission: commissionOf(r.commission_basis, r.commission_cents),
  symbolCommissions,
  instruments,
  leverageLimits,
  symbolSwaps,
  symbolMarkups,
  isDefault: Number(r.is_default) === 1,
  state: r.state,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const defaultOfKind = prepared((db, param: Param<{ kind: AccountKind }>) => db.selectFrom('account_types').select(COLUMNS).where('kind', '=', param('kind')).where('is_default', '=', 1));
const byId = prepared((db, param: Param<{ id: number }>) => db.selectFrom('account_types').select(COLUMNS).where('id', '=', param('id')));

/** Each of these types' leverage limits (every type's when `typeIds` is absent), by type id. */
export async function leverageLimitsOf(db: Db | Tx, typeIds?: readonly number[]): Promise<Map<number, LeverageLimits>> {
  const byType = new Map<number, ReturnType<typeof noLimits>>((typeIds ?? []).map((id) => [id, noLimits()]));
  if (typeIds && typeIds.length === 0) return byType;
  let q = db.selectFrom('account_type_leverage').selectAll();
  if (typeIds) q = q.where('account_type_id', 'in', [...new Set(typeIds)]);
  for (const r of await q.orderBy('name').execute()) {
    let limits = byType.get(r.account_type_id);
    if (!limits) byType.set(r.account_type_id, (limits = noLimits()));
    (r.scope === 'group' ? limits.groups : limits.symbols)[r.name] = r.max_leverage;
  }
  return byType;
}

/** Each of these types' own swaps (every type's when `typeIds` is absent), by type id and symbol. */
export async function swapsOf(db: Db | Tx, typeIds?: readonly number[]): Promise<Map<number, Map<string, SymbolSwap>>> {
  const byType = new Map<number, Map<string, SymbolSwap>>();
  if (typeIds && typeIds.length === 0) return byType;
  let q = db.selectFrom('account_type_swaps').selectAll();
  if (typeIds) q = q.where('account_type_id', 'in', [...new Set(typeIds)]);
  for (const r of await q.orderBy('symbol').execute()) {
    let swaps = byType.get(r.account_type_id);
    if (!swaps) byType.set(r.account_type_id, (swaps = new Map()));
    swaps.set(r.symbol, { symbol: r.symbol, swapLong: Number(r.swap_long), swapShort: Number(r.swap_short) });
  }
  return byType;
}

/** Every type's own spread markups, by type id and symbol (points). */
export async function markupsOf(db: Db | Tx): Promise<Map<number, Map<string, number>>> {
  const byType = new Map<number, Map<string, number>>();
  for (const r of await db.selectFrom('account_type_markups').selectAll().orderBy('symbol').execute()) {
    let markups = byType.get(r.account_type_id);
    if (!markups) byType.set(r.account_type_id, (markups = new Map()));
    markups.set(r.symbol, r.points);
  }
  return byType;
}

/**
 * Each of these types' terms by instrument: the instruments with a commission of their own, and
 * the instruments it offers (none listed: every one), by symbol.
 */
export async function typeInstrumentsOf(db: Db | Tx, typeIds: readonly number[]): Promise<Map<number, TypeInstruments>> {
  const limits = await leverageLimitsOf(db, typeIds);
  const byType = new Map<number, TypeInstruments>(typeIds.map((id) => [id, { symbolCommissions: [], instruments: null, leverageLimits: limits.get(id) ?? noLimits(), symbolSwaps: [], symbolMarkups: [] }]));
  if (typeIds.length === 0) return byType;
  const ids = [...new Set(typeIds)];
  const commissions = await db.selectFrom('account_type_symbols').selectAll().where('account_type_id', 'in', ids).orderBy('symbol').execute();
  for (const r of commissions) byType.get(r.account_type_id)?.symbolCommissions.push({ symbol: r.symbol, commission: { basis: r.commission_basis, amount: Number(r.commission_cents) / 100 } });
  for (const [typeId, swaps] of await swapsOf(db, ids)) {
    const t = byType.get(typeId);
    if (t) t.symbolSwaps = [...swaps.values()];
  }
  const markups = await db.selectFrom('account_type_markups').selectAll().where('account_type_id', 'in', ids).orderBy('symbol').execute();
  for (const r of markups) byType.get(r.account_type_id)?.symbolMarkups.push({ symbol: r.symbol, points: r.points });
  const offered = await db.selectFrom('account_type_instruments').selectAll().where('account_type_id', 'in', ids).orderBy('symbol').execute();
  for (const r of offered) {
    const t = byType.get(r.account_type_id);
    if (t) (t.instruments ??= []).push(r.symbol);
  }
  return byType;
}

/**
 * Whether the type aliased `t` in the query offers `symbol` (it lists it, or lists none), as a
 * column `offered`; read it with `isOffered`. Both lookups are on the table's primary key.
 */
export const offeredColumn = (symbol: string) =>
  sql<boolean | number>`(not exists (select 1 from account_type_instruments l where l.account_type_id = t.id) or exists (select 1 from account_type_instruments l where l.account_type_id = t.id and l.symbol = ${symbol}))`.as('offered');
/** The `offered` column as a boolean (PostgreSQL answers a boolean, SQLite 0 or 1). */
export const isOffered = (v: boolean | number | string) => v === true || Number(v) === 1;

/** Why an account may not open a position or place an order in an instrument its type does not offer. */
export const notOfferedMessage = (symbol: string, typeName: string) => `${symbol} is not offered on your account type (${typeName}). Positions already open in it can still be closed.`;

type CommissionColumns = { commission_basis: 'lot' | 'million' | null; commission_cents: number | string | null; symbol_basis: 'lot' | 'million' | null; symbol_cents: number | string | null };
/** The rule for a deal's commission: the instrument's own on the type (`symbol_*`), else the type's; null: none. */
export const dealCommissionOf = (r: CommissionColumns): CommissionSchedule | null => commissionOf(r.symbol_basis, r.symbol_cents) ?? commissionOf(r.commission_basis, r.commission_cents);

/**
 * The commission of a deal on `symbol` in account `accountId`, as its type charges it now: the
 * instrument's own if the type gives it one, else the type's; null: none. Read in the deal's
 * transaction, so a type changed meanwhile charges its new terms.
 */
export async function dealCommission(trx: Db | Tx, accountId: number, symbol: string): Promise<CommissionSchedule | null> {
  const row = await trx
    .selectFrom('trading_accounts as a')
    .innerJoin('account_types as t', 't.id', 'a.account_type_id')
    .leftJoin('account_type_symbols as s', (j) => j.onRef('s.account_type_id', '=', 't.id').on('s.symbol', '=', symbol))
    .select(['t.commission_basis', 't.commission_cents', 's.commission_basis as symbol_basis', 's.commission_cents as symbol_cents'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  return row ? dealCommissionOf(row) : null;
}

/** The default type of a kind: the one new accounts of the kind get (there is always one). */
export async function defaultAccountType(db: Db | Tx, kind: AccountKind): Promise<AccountType> {
  const row = await defaultOfKind.first(db, { kind });
  if (!row) throw new Error(`no default ${kind} account type`);
  return typeOfRow(row, (await typeInstrumentsOf(db, [row.id])).get(row.id));
}

export async function accountType(db: Db | Tx, id: number): Promise<AccountType | undefined> {
  const row = await byId.first(db, { id });
  return row ? typeOfRow(row, (await typeInstrumentsOf(db, [id])).get(id)) : undefined;
}

/** Every type — live ones, then demo ones; each kind's default first, then by name — with how many accounts hold each. */
export async function listAccountTypes(db: Db | Tx): Promise<(AccountType & { accounts: number })[]> {
  const rows = await db
    .selectFrom('account_types as t')
    .select(COLUMNS.map((c) => `t.${c}` as const))
    .select((eb) => eb.selectFrom('trading_accounts as a').select(sql<number>`count(*)`.as('n')).whereRef('a.account_type_id', '=', 't.id').as('accounts'))
    .orderBy('t.kind', 'desc')
    .orderBy('t.is_default', 'desc')
    .orderBy('t.name', 'asc')
    .execute();
  const symbols = await typeInstrumentsOf(db, rows.map((r) => r.id));
  return rows.map((r) => Object.assign(typeOfRow(r, symbols.get(r.id)), { accounts: Number(r.accounts) }));
}

/** A type's values as the audit log records them. */
const audited = (t: Pick<AccountType, 'name' | 'kind' | 'leverage' | 'marginCallLevel' | 'stopOutLevel' | 'tradingMode' | 'commission' | 'symbolCommissions' | 'instruments' | 'leverageLimits' | 'symbolSwaps' | 'symbolMarkups' | 'isDefault' | 'state'>) => ({
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
});

/**
 * Creates a type (no `id`) or changes one, audited with before and after. The levels it ends up
 * with (its own or the installation's) must keep the stop-out below the margin call. A default type
 * stays active and takes the default from the kind's previous one; the default cannot be given up
 * except by making another type the default; a type held by accounts keeps its kind.
 */
export async function saveAccountType(ctx: ServiceContext, actor: Actor, input: AccountTypeInput, knownSymbols: ReadonlySet<string>): Promise<AccountType> {
  const installation = installationTerms(ctx.config);
  const symbolCommissions = [...(input.symbolCommissions ?? [])].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  const instruments = input.instruments ? [...input.instruments].sort() : null;
  // Kept in name order, as they are read back.
  const byName = (r: Record<string, number | undefined>) => Object.fromEntries(Object.entries(r).flatMap(([k, v]) => (v === undefined ? [] : [[k, v] as const])).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const leverageLimits = { symbols: byName(input.leverageLimits?.symbols ?? {}), groups: byName(input.leverageLimits?.groups ?? {}) };
  const symbolSwaps = [...(input.symbolSwaps ?? [])].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  const symbolMarkups = [...(input.symbolMarkups ?? [])].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  const unknown = [...symbolCommissions.map((x) => x.symbol), ...(instruments ?? []), ...Object.keys(leverageLimits.symbols), ...symbolSwaps.map((x) => x.symbol), ...symbolMarkups.map((x) => x.symbol)].find((symbol) => !knownSymbols.has(symbol));
  if (unknown) throw refuse.invalid(`Unknown symbol: ${unknown}.`);
  const terms = termsOf({ leverage: input.leverage, marginCallLevel: input.marginCallLevel, stopOutLevel: input.stopOutLevel, tradingMode: input.tradingMode }, installation);
  if (terms.stopOutLevel >= terms.marginCallLevel) throw refuse.invalid(`The stop-out level (${terms.stopOutLevel}%) must be below the margin-call level (${terms.marginCallLevel}%).`);
  if (input.isDefault && input.state !== 'active') throw refuse.invalid('The default type must be active.');
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.now();
    // One change of types at a time (PostgreSQL): the default of a kind moves in one step.
    if (ctx.engine === 'postgres') await sql`lock table account_types in share row exclusive mode`.execute(trx);
    const clash = await trx.selectFrom('account_types').select('id').where(sql<string>`lower(name)`, '=', input.name.toLowerCase()).executeTakeFirst();
    if (clash && clash.id !== input.id) throw refuse.conflict(`An account type named "${input.name}" exists already.`);
    const before = input.id === undefined ? undefined : await accountType(trx, input.id);
    if (input.id !== undefined && !before) throw refuse.notFound('That account type was not found.');
    if (before) {
      if (before.kind !== input.kind) {
        const held = await trx.selectFrom('trading_accounts').select('id').where('account_type_id', '=', before.id).executeTakeFirst();
        if (held) throw refuse.invalid(`"${before.name}" is held by ${before.kind} accounts: its kind cannot change.`);
      }
      if (before.isDefault && (!input.isDefault || before.kind !== input.kind)) throw refuse.invalid(`"${before.name}" is the default ${before.kind} type: make another type the default first.`);
    }
    if (input.isDefault) await trx.updateTable('account_types').set({ is_default: 0, updated_at: now }).where('kind', '=', input.kind).where('is_default', '=', 1).where('id', '!=', input.id ?? 0).execute();
    const values = {
      name: input.name,
      kind: input.kind,
      leverage: input.leverage,
      margin_call_level: input.marginCallLevel,
      stop_out_level: input.stopOutLevel,
      trading_mode: input.tradingMode,
      commission_basis: input.commission?.basis ?? null,
      commission_cents: input.commission ? Math.round(input.commission.amount * 100) : null,
      is_default: input.isDefault ? 1 : 0,
      state: input.state,
      updated_at: now,
    };
    const row = before
      ? await trx.updateTable('account_types').set(values).where('id', '=', before.id).returning(COLUMNS).executeTakeFirstOrThrow()
      : await trx.insertInto('account_types').values({ ...values, created_at: now }).returning(COLUMNS).executeTakeFirstOrThrow();
    // The instruments' own commissions are replaced as a whole by the ones sent.
    await trx.deleteFrom('account_type_symbols').where('account_type_id', '=', row.id).execute();
    if (symbolCommissions.length > 0) {
      await trx
        .insertInto('account_type_symbols')
        .values(symbolCommissions.map((x) => ({ account_type_id: row.id, symbol: x.symbol, commission_basis: x.commission.basis, commission_cents: Math.round(x.commission.amount * 100) })))
        .execute();
    }
    // So are the instruments it offers (none listed: every one).
    await trx.deleteFrom('account_type_instruments').where('account_type_id', '=', row.id).execute();
    if (instruments) await trx.insertInto('account_type_instruments').values(instruments.map((symbol) => ({ account_type_id: row.id, symbol }))).execute();
    // And its leverage limits.
    await trx.deleteFrom('account_type_leverage').where('account_type_id', '=', row.id).execute();
    const limitRows = [...Object.entries(leverageLimits.groups).map(([name, max]) => ({ scope: 'group' as const, name, max })), ...Object.entries(leverageLimits.symbols).map(([name, max]) => ({ scope: 'symbol' as const, name, max }))];
    if (limitRows.length > 0) await trx.insertInto('account_type_leverage').values(limitRows.map((l) => ({ account_type_id: row.id, scope: l.scope, name: l.name, max_leverage: l.max }))).execute();
    // And its own swaps.
    await trx.deleteFrom('account_type_swaps').where('account_type_id', '=', row.id).execute();
    if (symbolSwaps.length > 0) await trx.insertInto('account_type_swaps').values(symbolSwaps.map((x) => ({ account_type_id: row.id, symbol: x.symbol, swap_long: x.swapLong, swap_short: x.swapShort }))).execute();
    // And its own spread markups.
    await trx.deleteFrom('account_type_markups').where('account_type_id', '=', row.id).execute();
    if (symbolMarkups.length > 0) await trx.insertInto('account_type_markups').values(symbolMarkups.map((x) => ({ account_type_id: row.id, symbol: x.symbol, points: x.points }))).execute();
    const saved = typeOfRow(row, { symbolCommissions, instruments, leverageLimits, symbolSwaps, symbolMarkups });
    await recordAudit(trx, { actorId: actor.userId, action: before ? 'account_type.edit' : 'account_type.add', targetType: 'account_type', targetId: saved.id, subjectUserId: null, subjectAccountId: null, before: before ? audited(before) : null, after: audited(saved), ip: actor.ip, at: now });
    return saved;
  });
}

/** What moving an account to another type needs of the engine: the account's margin level at a leverage. */
export type MarginLevelAt = (trx: Tx, accountId: number, leverage: number) => Promise<{ marginCents: number; marginLevel: number }>;

/**
 * Moves an account to another type of its kind, audited: its leverage becomes the type's, its
 * levels and trading mode the type's at once. Refused when, with positions open, the margin level
 * at the new leverage would be at or below the new type's stop-out level (the reason says by how
 * much), or when the type is disabled.
 */
export async function setAccountType(ctx: ServiceContext, actor: Actor, accountId: number, typeId: number, marginLevelAt: MarginLevelAt) {
  return ctx.db.transaction().execute(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const account = await trx.selectFrom('trading_accounts').select(['id', 'number', 'user_id', 'kind', 'leverage', 'account_type_id']).where('id', '=', accountId).executeTakeFirst();
    if (!account) throw refuse.notFound('That trading account was not found.');
    const type = await accountType(trx, typeId);
    if (!type) throw refuse.notFound('That account type was not found.');
    if (type.kind !== account.kind) throw refuse.invalid(`"${type.name}" is a ${type.kind} type; account ${account.number} is ${account.kind}.`);
    if (type.state !== 'active') throw refuse.invalid(`"${type.name}" is disabled: no account can be moved to it.`);
    const previous = await accountType(trx, account.account_type_id);
    const terms = termsOf(type, installationTerms(ctx.config));
    const at = await marginLevelAt(trx, accountId, terms.leverage);
    if (at.marginCents > 0 && at.marginLevel <= terms.stopOutLevel) {
      throw refuse.invalid(`Account ${account.number} cannot move to "${type.name}": at 1:${terms.leverage} its margin level would be ${at.marginLevel.toFixed(2)}%, at or below the type's stop-out level of ${terms.stopOutLevel}%.`);
    }
    const now = ctx.now();
    await trx.updateTable('trading_accounts').set({ account_type_id: type.id, leverage: terms.leverage, updated_at: now }).where('id', '=', accountId).execute();
    await recordAudit(trx, {
      actorId: actor.userId,
      action: 'account.type',
      targetType: 'trading_account',
      targetId: accountId,
      subjectUserId: account.user_id,
      subjectAccountId: accountId,
      before: { type: previous?.name ?? null, leverage: account.leverage },
      after: { type: type.name, leverage: terms.leverage },
      ip: actor.ip,
      at: now,
    });
    return { userId: account.user_id, number: Number(account.number), type, leverage: terms.leverage };
  });
}
