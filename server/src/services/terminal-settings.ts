import type { EditTerminalSettingsRequest, TerminalSettings } from '@tradeport/contracts';
import { prepared, type Param } from '../storage/prepared';
import type { ServiceContext } from './context';

// At most one row: user_id is the table's primary key.
const storedSettings = prepared((db, param: Param<{ userId: number }>) => db.selectFrom('terminal_settings').select(['one_click_trading', 'hotkeys']).where('user_id', '=', param('userId')));

/** The stored row of a user's settings, none if never changed (as `terminalSettingsRows` reads it). */
export type TerminalSettingsRows = readonly { one_click_trading: number; hotkeys: number }[];

/**
 * The stored row of a user's settings (an empty list if never changed). On SQLite a prepared read:
 * while `terminal_settings` is not written the same frozen list is given again, so an answer made
 * from it can be kept with it (responses.ts' answerCache); a change drops it at once.
 */
export function terminalSettingsRows(ctx: ServiceContext, userId: number): Promise<TerminalSettingsRows> {
  return storedSettings.all(ctx.db, { userId });
}

/** The settings those rows show; a user who never changed them has both off. */
export const settingsOfRows = (rows: TerminalSettingsRows): TerminalSettings => {
  const row = rows[0];
  return { oneClickTrading: Number(row?.one_click_trading ?? 0) === 1, hotkeys: Number(row?.hotkeys ?? 0) === 1 };
};

/** A user's terminal settings (see `settingsOfRows`). */
export async function terminalSettingsOf(ctx: ServiceContext, userId: number): Promise<TerminalSettings> {
  return settingsOfRows(await terminalSettingsRows(ctx, userId));
}

/**
 * Changes the settings sent and keeps the others; one upsert, so two tabs changing different
 * settings at once both keep their change. Answers the stored result.
 */
export async function editTerminalSettings(ctx: ServiceContext, userId: number, change: EditTerminalSettingsRequest): Promise<TerminalSettings> {
  const set: { one_click_trading?: number; hotkeys?: number } = {};
  if (change.oneClickTrading !== undefined) set.one_click_trading = change.oneClickTrading ? 1 : 0;
  if (change.hotkeys !== undefined) set.hotkeys = change.hotkeys ? 1 : 0;
  const at = ctx.now();
  await ctx.db
    .insertInto('terminal_settings')
    .values({ user_id: userId, one_click_trading: set.one_click_trading ?? 0, hotkeys: set.hotkeys ?? 0, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...set, updated_at: at }))
    .execute();
  return terminalSettingsOf(ctx, userId);
}
