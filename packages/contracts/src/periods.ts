/** Candle periods (spec section 3: the mobile periods), in a zod-free module the browser can import. */
export const PERIOD_NAMES = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN'] as const;
export type PeriodName = (typeof PERIOD_NAMES)[number];
