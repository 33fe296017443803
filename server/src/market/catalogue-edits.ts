import type { CatalogueInstrument, InstrumentInput } from '@tradeport/contracts';
import type { Selectable } from 'kysely';
import { parseCalendar, parseSchedule, type CalendarSpec } from '../domain/trading-sessions';
import { recordAudit } from '../services/audit';
import type { Actor, ServiceContext } from '../services/context';
import { refuse } from '../services/errors';
import type { Instrument } from '../domain/instruments';
import type { Db, Tx } from '../storage/db';
import type { InstrumentsTable } from '../storage/schema';

/**
 * The back office's edits of the instrument catalogue (docs/design.md#instruments). A saved
 * instrument is read again by every instance (`instrument.changed` on the bus) and applied in place
 * to the loaded one, so the book, the engine, candles and the feeds see it from then on.
 */

type Row = Selectable<InstrumentsTable>;

/** Open positions and pending orders per symbol. */
async function holdings(db: Db | Tx, symbol?: string): Promise<Map<string, { positions: number; orders: number }>> {
  let positions = db.selectFrom('positions').select(['symbol', (eb) => eb.fn.countAll<string | number>().as('n')]).where('status', '=', 'open').groupBy('symbol');
  let orders = db.selectFrom('orders').select(['symbol', (eb) => eb.fn.countAll<string | number>().as('n')]).where('status', '=', 'pending').groupBy('symbol');
  if (symbol !== undefined) {
    positions = positions.where('symbol', '=', symbol);
    orders = orders.where('symbol', '=', symbol);
  }
  const held = new Map<string, { positions: number; orders: number }>();
  const entry = (s: string) => held.get(s) ?? held.set(s, { positions: 0, orders: 0 }).get(s)!;
  for (const r of await positions.execute()) entry(r.symbol).positions = Number(r.n);
  for (const r of await orders.execute()) entry(r.symbol).orders = Number(r.n);
  return held;
}

function answer(r: Row, held: { positions: number; orders: number } | undefined): CatalogueInstrument {
  const calendar = r.calendar_json ? (JSON.parse(r.calendar_json) as CalendarSpec) : null;
  return {
    symbol: r.symbol,
    description: r.description,
    group: r.group_name,
    base: r.base_currency,
    quote: r.quote_currency,
    calcMode: r.calc_mode,
    digits: r.digits,
    contractSize: r.contract_size,
    volumeMin: r.volume_min,
    volumeStep: r.volume_step,
    volumeMax: r.volume_max,
    sessions: JSON.parse(r.sessions_json) as string[],
    holidays: calendar ? { zone: calendar.zone, closed: calendar.closed ?? [], earlyCloses: calendar.earlyCloses ?? [] } : null,
    spreadMarkup: r.spread_markup,
    marginRate: Number(r.margin_rate),
    swapLong: r.swap_long,
    swapShort: r.swap_short,
    tradingMode: r.trading_mode,
    openPositions: held?.positions ?? 0,
    pendingOrders: held?.orders ?? 0,
    updatedAt: Number(r.updated_at),
  };
}

/** Every instrument of the catalogue, in catalogue order, with what is held in each. */
export async function listCatalogue(db: Db): Promise<CatalogueInstrument[]> {
  const [rows, held] = await Promise.all([db.selectFrom('instruments').selectAll().orderBy('sort_order').orderBy('id').execute(), holdings(db)]);
  return rows.map((r) => answer(r, held.get(r.symbol)));
}

/** What the audit log keeps of an instrument, before and after a change. */
const audited = (i: CatalogueInstrument) => {
  const { openPositions: _p, pendingOrders: _o, updatedAt: _u, ...values } = i;
  return values;
};

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Saves an instrument's values, audited with before and after. Refused: an unknown symbol;
 * session windows or a holiday calendar that do not parse; a new digits, contract size or group
 * while positions or orders are held in it (they were opened and margined by the old ones);
 * disabling it while anything is held. Answers the saved row and whether anything changed.
 */
export async function saveInstrument(ctx: ServiceContext, actor: Actor, input: InstrumentInput): Promise<{ row: CatalogueInstrument; changed: boolean }> {
  const holidays: CalendarSpec | null = input.holidays;
  const problem = (what: string, check: () => unknown) => {
    try {
      check();
    } catch (err) {
      throw refuse.invalid(`${what}: ${(err as Error).message}.`);
    }
  };
  problem('Sessions', () => parseSchedule(input.sessions));
  if (holidays) problem('Holidays', () => parseCalendar(holidays));
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('instruments').selectAll().where('symbol', '=', input.symbol);
    // Two saves of one instrument apply one after the other (SQLite's write lock does this there).
    if (ctx.engine === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) throw refuse.notFound(`Unknown symbol: ${input.symbol}.`);
    const held = (await holdings(trx, input.symbol)).get(input.symbol);
    const before = answer(row, held);
    const holding = held ? [held.positions > 0 ? count(held.positions, 'open position') : '', held.orders > 0 ? count(held.orders, 'pending order') : ''].filter(Boolean).join(' and ') : '';
    if (holding) {
      const fixed = [input.digits !== row.digits && 'digits', input.contractSize !== row.contract_size && 'contract size', input.group !== row.group_name && 'group'].filter((x): x is string => typeof x === 'string');
      if (fixed.length > 0) throw refuse.invalid(`${input.symbol} has ${holding}: its ${fixed.join(', ')} cannot change until they are closed.`);
      if (input.tradingMode === 'disabled') throw refuse.invalid(`${input.symbol} has ${holding}: it cannot be disabled until they are closed. Make it close-only meanwhile.`);
    }
    const values = {
      description: input.description,
      group_name: input.group,
      digits: input.digits,
      contract_size: input.contractSize,
      volume_min: input.volumeMin,
      volume_step: input.volumeStep,
      volume_max: input.volumeMax,
      sessions_json: JSON.stringify(input.sessions),
      calendar_json: holidays ? JSON.stringify(holidays) : null,
      spread_markup: input.spreadMarkup,
      margin_rate: input.marginRate,
      swap_long: input.swapLong,
      swap_short: input.swapShort,
      trading_mode: input.tradingMode,
    };
    const after = answer({ ...row, ...values, updated_at: now }, held);
    if (JSON.stringify(audited(after)) === JSON.stringify(audited(before))) return { row: before, changed: false };
    await trx.updateTable('instruments').set({ ...values, updated_at: now }).where('id', '=', row.id).execute();
    await recordAudit(trx, { actorId: actor.userId, action: 'instrument.edit', targetType: 'instrument', targetId: row.id, subjectUserId: null, subjectAccountId: null, before: audited(before), after: audited(after), ip: actor.ip, at: now });
    return { row: after, changed: true };
  });
}

/**
 * Called in an order's transaction: the instrument as stored must still be the one the order was
 * checked against (full trading mode, the same digits and contract size). Read under a share lock
 * on PostgreSQL (SQLite runs one write transaction at a time), so a back-office save of it either
 * waits for the order and counts its position, or commits first and the order is refused here.
 */
export async function confirmInstrument(engine: 'sqlite' | 'postgres', trx: Tx, instrument: Pick<Instrument, 'symbol' | 'digits' | 'contractSize'>): Promise<void> {
  let query = trx.selectFrom('instruments').select(['trading_mode', 'digits', 'contract_size']).where('symbol', '=', instrument.symbol);
  if (engine === 'postgres') query = query.forShare();
  const row = await query.executeTakeFirst();
  if (row && row.trading_mode === 'full' && row.digits === instrument.digits && Number(row.contract_size) === instrument.contractSize) return;
  throw refuse.conflict(`${instrument.symbol} was just changed in the back office; please check it and send the order again.`);
}

/** An instrument's row (every row), for an instance applying a change saved anywhere. */
export function instrumentRow(db: Db, symbol: string): Promise<Row | undefined> {
  return db.selectFrom('instruments').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export function instrumentRows(db: Db): Promise<Row[]> {
  return db.selectFrom('instruments').selectAll().execute();
}
