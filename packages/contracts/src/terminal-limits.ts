/** Limits of the trading terminal's per-user lists, in a zod-free module the browser can import. */

/** The most symbols a trader's favourites may hold (the price table's Favourites category). */
export const MAX_FAVOURITES = 100;
