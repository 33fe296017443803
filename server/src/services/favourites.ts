import { MAX_FAVOURITES } from '@tradeport/contracts';
import { prepared, type Param } from '../storage/prepared';
import type { ServiceContext } from './context';
import { refuse } from './errors';
import { lockUser } from './ledger';

/**
 * A trader's favourite symbols: the price table's Favourites category, in the order they were
 * added. Only instruments of the catalogue can be added, at most MAX_FAVOURITES of them.
 */

const storedFavourites = prepared((db, param: Param<{ userId: number }>) =>
  db.selectFrom('favourite_symbols').select('symbol').where('user_id', '=', param('userId')).orderBy('position').orderBy('symbol'),
);

/**
 * The favourites stored rows show (oldest first): the symbols still listed in the catalogue. One
 * taken out of it stays stored, and shows again if it comes back.
 */
/** Which symbols the catalogue offers now. */
export interface Listed {
  has(symbol: string): boolean;
}

function favouritesOfRows(rows: readonly { symbol: string }[], listed: Listed): string[] {
  return rows.map((r) => r.symbol).filter((s) => listed.has(s));
}

/** A user's favourites, oldest first (see `favouritesOfRows`). */
export async function listFavourites(ctx: ServiceContext, userId: number, listed: Listed): Promise<string[]> {
  return favouritesOfRows(await storedFavourites.all(ctx.db, { userId }), listed);
}

/**
 * Adds a symbol to the user's favourites (after the others) or removes it; doing what is already
 * so changes nothing. The count and the insert run under the user's row lock, so two tabs adding at
 * once cannot pass the limit together. Answers the favourites as stored.
 */
export async function editFavourite(ctx: ServiceContext, userId: number, symbol: string, favourite: boolean, listed: Listed): Promise<string[]> {
  const rows = await ctx.db.transaction().execute(async (trx) => {
    await lockUser(ctx, trx, userId);
    const stored = await trx.selectFrom('favourite_symbols').select(['symbol', 'position']).where('user_id', '=', userId).execute();
    const has = stored.some((r) => r.symbol === symbol);
    // A symbol no longer listed may still be removed while it is stored; nothing else unknown is taken.
    if (!listed.has(symbol) && !(has && !favourite)) throw refuse.invalid(`Unknown symbol: ${symbol}.`);
    if (favourite && !has) {
      const shown = stored.filter((r) => listed.has(r.symbol)).length;
      if (shown >= MAX_FAVOURITES) throw refuse.conflict(`You already have ${MAX_FAVOURITES} favourites, the most the list may hold. Remove one before adding another.`);
      const position = stored.reduce((max, r) => Math.max(max, Number(r.position)), 0) + 1;
      await trx.insertInto('favourite_symbols').values({ user_id: userId, symbol, position, added_at: ctx.now() }).execute();
    } else if (!favourite && has) {
      await trx.deleteFrom('favourite_symbols').where('user_id', '=', userId).where('symbol', '=', symbol).execute();
    }
    return trx.selectFrom('favourite_symbols').select('symbol').where('user_id', '=', userId).orderBy('position').orderBy('symbol').execute();
  });
  return favouritesOfRows(rows, listed);
}
