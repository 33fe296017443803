/** One row per user who changed a terminal setting; flags are 1 (on) or 0 (off). */
export interface TerminalSettingsTable {
  user_id: number;
  one_click_trading: number;
  hotkeys: number;
  updated_at: number;
}
