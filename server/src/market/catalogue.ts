import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instrumentGroup } from '@tradeport/contracts';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { Instrument } from '../domain/instruments';
import { parseCalendar, parseSchedule, type CalendarSpec } from '../domain/trading-sessions';
import type { Db } from '../storage/db';
import type { InstrumentsTable } from '../storage/schema';

/**
 * The instrument catalogue (docs/design.md#instruments): the `instruments` table holds it and the
 * back office edits it (catalogue-edits.ts). A JSON file (server/config/instruments.json, or
 * INSTRUMENTS_FILE) seeds the table: at each start, the file's instruments the table does not have
 * yet are added; those it has are left as the back office made them.
 */
export const DEFAULT_CATALOGUE_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../config/instruments.json');

const positive = (what: string) => z.number({ error: `${what} must be a number` }).positive(`${what} must be positive`);

const instrumentEntry = z.object({
  symbol: z.string().regex(/^[A-Z0-9.]{1,20}$/, 'symbol must be 1-20 capital letters, digits or dots'),
  description: z.string().min(1).max(100),
  group: instrumentGroup,
  base: z.string().regex(/^[A-Z0-9]{1,10}$/),
  quote: z.string().regex(/^[A-Z]{3}$/),
  digits: z.number().int().min(0).max(8),
  contractSize: positive('contractSize'),
  volume: z.object({ min: positive('volume.min'), step: positive('volume.step'), max: positive('volume.max') }).refine((v) => v.min <= v.max, 'volume.min must not exceed volume.max'),
  calcMode: z.enum(['forex', 'cfd']),
  schedule: z.string().min(1),
  swapLong: z.number(),
  swapShort: z.number(),
  spreadMarkup: z.number().int().min(0).max(100_000),
  marginRate: z
    .number()
    .refine((v) => v >= 0.01 && v <= 100 && Math.abs(Math.round(v * 10_000) - v * 10_000) < 1e-6, 'marginRate must be from 0.01 to 100 with at most 4 decimals')
    .default(1),
  sim: z.object({ price: positive('sim.price'), spread: z.number().min(0), volatility: z.number().min(0).max(5), ticksPerSecond: z.number().min(0).max(50) }),
  feeds: z.object({ binance: z.string().regex(/^[A-Z0-9]{2,20}$/).optional(), polygon: z.string().min(1).max(20).optional() }).strict().default({}),
});

/** Holiday closures and early closes of one instrument group, as local dates of `zone`. */
const calendarEntry = z
  .object({
    zone: z.string().min(1),
    closed: z.array(z.string()).max(1000).optional(),
    earlyCloses: z.array(z.object({ date: z.string(), close: z.string() }).strict()).max(1000).optional(),
  })
  .strict();

const catalogueFile = z.object({
  $comment: z.string().optional(),
  schedules: z.record(z.string(), z.array(z.string()).min(1)),
  holidays: z.partialRecord(instrumentGroup, calendarEntry).optional(),
  instruments: z.array(instrumentEntry).min(1),
});

export type CatalogueEntry = z.infer<typeof instrumentEntry>;

/** Reads and checks a catalogue file; throws one message listing every problem. */
export type CatalogueCalendar = z.infer<typeof calendarEntry>;

export function readCatalogueFile(path: string): { schedules: Record<string, string[]>; holidays?: Partial<Record<CatalogueEntry['group'], CatalogueCalendar>>; instruments: CatalogueEntry[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`Cannot read the instrument catalogue ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = catalogueFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Invalid instrument catalogue ${path}:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const problems: string[] = [];
  for (const [name, windows] of Object.entries(parsed.data.schedules)) {
    try {
      parseSchedule(windows);
    } catch (err) {
      problems.push(`schedules.${name}: ${(err as Error).message}`);
    }
  }
  for (const [group, calendar] of Object.entries(parsed.data.holidays ?? {})) {
    try {
      parseCalendar(calendar);
    } catch (err) {
      problems.push(`holidays.${group}: ${(err as Error).message}`);
    }
  }
  const seen = new Set<string>();
  for (const i of parsed.data.instruments) {
    if (seen.has(i.symbol)) problems.push(`${i.symbol}: listed twice`);
    seen.add(i.symbol);
    if (!parsed.data.schedules[i.schedule]) problems.push(`${i.symbol}: unknown schedule "${i.schedule}"`);
  }
  // Profit is converted to USD from the quote currency, and Forex margin from the base currency:
  // each must be USD or have an XXXUSD or USDXXX instrument, or nothing could trade it.
  const symbols = new Set(parsed.data.instruments.map((i) => i.symbol));
  const convertible = (ccy: string) => ccy === 'USD' || symbols.has(`${ccy}USD`) || symbols.has(`USD${ccy}`);
  for (const i of parsed.data.instruments) {
    if (!convertible(i.quote)) problems.push(`${i.symbol}: no ${i.quote}USD or USD${i.quote} instrument to convert its profit to USD`);
    if (i.calcMode === 'forex' && !convertible(i.base)) problems.push(`${i.symbol}: no ${i.base}USD or USD${i.base} instrument to convert its margin to USD`);
  }
  if (problems.length > 0) throw new Error(`Invalid instrument catalogue ${path}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return parsed.data;
}

/** Adds the file's instruments the table lacks (all of them on a first start); never changes one it has. */
export async function seedCatalogue(db: Db, path: string, now: number): Promise<string[]> {
  const file = readCatalogueFile(path);
  return db.transaction().execute(async (trx) => {
    const known = new Set((await trx.selectFrom('instruments').select('symbol').execute()).map((r) => r.symbol));
    const last = await trx.selectFrom('instruments').select((eb) => eb.fn.max('sort_order').as('last')).executeTakeFirst();
    let order = last?.last === null || last?.last === undefined ? 0 : Number(last.last) + 1;
    const added: string[] = [];
    for (const i of file.instruments) {
      if (known.has(i.symbol)) continue;
      await trx
        .insertInto('instruments')
        .values({
          symbol: i.symbol,
          description: i.description,
          group_name: i.group,
          base_currency: i.base,
          quote_currency: i.quote,
          digits: i.digits,
          contract_size: i.contractSize,
          volume_min: i.volume.min,
          volume_step: i.volume.step,
          volume_max: i.volume.max,
          calc_mode: i.calcMode,
          sessions_json: JSON.stringify(file.schedules[i.schedule]),
          calendar_json: file.holidays?.[i.group] ? JSON.stringify(file.holidays[i.group]) : null,
          swap_long: i.swapLong,
          swap_short: i.swapShort,
          spread_markup: i.spreadMarkup,
          margin_rate: i.marginRate,
          sim_json: JSON.stringify(i.sim),
          feeds_json: JSON.stringify(i.feeds),
          sort_order: order++,
          trading_mode: 'full',
          updated_at: now,
        })
        .execute();
      added.push(i.symbol);
    }
    return added;
  });
}

/**
 * The values of an instrument kept in the table, as the server works with them. Applied in place
 * to the loaded Instrument when the back office changes it (every reader holds the same object).
 */
export function instrumentValues(r: Selectable<InstrumentsTable>): Omit<Instrument, 'id' | 'symbol' | 'base' | 'quote' | 'calcMode' | 'sim' | 'feeds'> {
  const sessions = JSON.parse(r.sessions_json) as string[];
  return {
    description: r.description,
    group: r.group_name,
    digits: r.digits,
    point: 10 ** -r.digits,
    contractSize: r.contract_size,
    volumeMin: r.volume_min,
    volumeStep: r.volume_step,
    volumeMax: r.volume_max,
    sessions,
    schedule: parseSchedule(sessions, r.calendar_json ? (JSON.parse(r.calendar_json) as CalendarSpec) : null),
    swapLong: r.swap_long,
    swapShort: r.swap_short,
    spreadMarkup: r.spread_markup,
    marginRate: Number(r.margin_rate),
    tradingMode: r.trading_mode,
  };
}

/**
 * Every instrument of the table, in catalogue order, disabled ones too: they are loaded (and priced)
 * but not offered, so the back office can enable one again without a restart.
 */
export async function loadInstruments(db: Db): Promise<Instrument[]> {
  const rows = await db.selectFrom('instruments').selectAll().orderBy('sort_order').orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    symbol: r.symbol,
    base: r.base_currency,
    quote: r.quote_currency,
    calcMode: r.calc_mode,
    sim: JSON.parse(r.sim_json) as Instrument['sim'],
    feeds: JSON.parse(r.feeds_json) as Instrument['feeds'],
    ...instrumentValues(r),
  }));
}
