import type { EditTerminalSettingsRequest, TerminalSettings } from '@tradeport/contracts';
import { prepared, type Param } from '../storage/prepared';
import type { ServiceContext } from './context';

// At most one row: user_id is the table's primary key.
const storedSettings = prepared((db, param: Param<{ userId: number }>) =>
  db.selectFrom('terminal_settings').select(['one_click_trading', 'hotkeys', 'change_column', 'spread_column']).where('user_id', '=', param('userId')),
);

/** The stored row of a user's settings, none if never changed (as `terminalSettingsRows` reads it). */
export type TerminalSettingsRows = readonly { one_click_trading: number; hotkeys: number; change_column: number; spread_column: number }[];

/** The stored row of a user's settings (an empty list if never changed). */
export function terminalSettingsRows(ctx: ServiceContext, userId: number): Promise<TerminalSettingsRows> {
  return storedSettings.all(ctx.db, { userId });
}

const on = (flag: number | undefined) => Number(flag ?? 0) === 1;

/** The settings those rows show; a user who never changed them has every one off. */
export const settingsOfRows = (rows: TerminalSettingsRows): TerminalSettings => {
  const row = rows[0];
  return { oneClickTrading: on(row?.one_click_trading), hotkeys: on(row?.hotkeys), changeColumn: on(row?.change_column), spreadColumn: on(row?.spread_column) };
};

/** A user's terminal settings (see `settingsOfRows`). */
export async function terminalSettingsOf(ctx: ServiceContext, userId: number): Promise<TerminalSettings> {
  return settingsOfRows(await terminalSettingsRows(ctx, userId));
}

/** Each setting's column. */
const COLUMNS = { oneClickTrading: 'one_click_trading', hotkeys: 'hotkeys', changeColumn: 'change_column', spreadColumn: 'spread_column' } as const;
type Flags = { -readonly [K in keyof typeof COLUMNS as (typeof COLUMNS)[K]]: number };

/**
 * Changes the settings sent and keeps the others; one upsert, so two tabs changing different
 * settings at once both keep their change. Answers the stored result.
 */
export async function editTerminalSettings(ctx: ServiceContext, userId: number, change: EditTerminalSettingsRequest): Promise<TerminalSettings> {
  const set: Partial<Flags> = {};
  for (const [name, column] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, keyof Flags][]) {
    const value = change[name];
    if (value !== undefined) set[column] = value ? 1 : 0;
  }
  const at = ctx.now();
  await ctx.db
    .insertInto('terminal_settings')
    .values({ user_id: userId, one_click_trading: 0, hotkeys: 0, change_column: 0, spread_column: 0, ...set, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...set, updated_at: at }))
    .execute();
  return terminalSettingsOf(ctx, userId);
}
