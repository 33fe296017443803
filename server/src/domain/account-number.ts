/**
 * Trading-account numbers, the number people see and quote (on screens, statements and in the
 * back office's search): eight digits, drawn at random so they say nothing of how many accounts a
 * broker holds or in which order they were opened. Never the database id; unique (an index says so).
 */
export const ACCOUNT_NUMBER_MIN = 10_000_000;
export const ACCOUNT_NUMBER_MAX = 99_999_999;

/** A number drawn with `draw` (a uniform integer in [min, maxExclusive): `crypto.randomInt`). */
export const drawAccountNumber = (draw: (min: number, maxExclusive: number) => number): number => draw(ACCOUNT_NUMBER_MIN, ACCOUNT_NUMBER_MAX + 1);
