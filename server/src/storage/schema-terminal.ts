/** One row per user who changed a terminal setting; flags are 1 (on) or 0 (off). */
export interface TerminalSettingsTable {
  user_id: number;
  one_click_trading: number;
  hotkeys: number;
  /** The price table's optional columns: the day's change (percent) and the spread (points). */
  change_column: number;
  spread_column: number;
  updated_at: number;
}

/** A user's favourite symbol; `position` orders them as they were added (1 first). */
export interface FavouriteSymbolsTable {
  user_id: number;
  symbol: string;
  position: number;
  added_at: number;
}
