import { z } from 'zod';
import { MAX_FAVOURITES } from './terminal-limits';

export { MAX_FAVOURITES };

/**
 * A trader's favourite symbols, kept on the server: the price table's Favourites category, in the
 * order they were added. Only symbols of the instrument catalogue can be added, at most
 * `MAX_FAVOURITES` of them.
 */
const favouriteSymbol = z
  .string({ error: 'symbol is required.' })
  .trim()
  .min(1, 'symbol is required.')
  .max(20, 'symbol is at most 20 characters.')
  .regex(/^[A-Za-z0-9._-]+$/, 'symbol may hold letters, digits, dot, dash and underscore only.')
  .transform((s) => s.toUpperCase());

/** Add (`favourite: true`) or remove (`false`) one symbol; doing what is already so changes nothing. */
export const editFavouritesRequest = z
  .looseObject({ symbol: favouriteSymbol, favourite: z.boolean({ error: 'favourite must be true or false.' }) })
  .superRefine((v, ctx) => {
    for (const key of Object.keys(v)) {
      if (key !== 'symbol' && key !== 'favourite') ctx.addIssue({ code: 'custom', path: [key], message: `Unknown field: ${key.slice(0, 40)}. Send symbol and favourite.` });
    }
  });
export type EditFavouritesRequest = z.infer<typeof editFavouritesRequest>;

/** The favourite symbols, oldest first. */
export const favouritesResponse = z.object({ status: z.literal('success'), data: z.array(z.string()) });
