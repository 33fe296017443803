import type { EditTerminalSettingsRequest, TerminalSettings } from '@tradeport/contracts';
import type { ServiceContext } from './context';

const settingsOf = (row: { one_click_trading: number; hotkeys: number } | undefined): TerminalSettings => ({
  oneClickTrading: Number(row?.one_click_trading ?? 0) === 1,
  hotkeys: Number(row?.hotkeys ?? 0) === 1,
});

/** A user's terminal settings; a user who never changed them has both off. */
export async function terminalSettingsOf(ctx: ServiceContext, userId: number): Promise<TerminalSettings> {
  return settingsOf(await ctx.db.selectFrom('terminal_settings').select(['one_click_trading', 'hotkeys']).where('user_id', '=', userId).executeTakeFirst());
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
