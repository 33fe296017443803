import { chartLayout, type ChartLayout } from '@tradeport/contracts';
import type { ServiceContext } from './context';

const EMPTY: ChartLayout = { drawings: [], indicators: [] };

/**
 * A user's chart layout for one symbol; a symbol never saved has none. A stored row is read back
 * through the same schema it was saved with, so a row that no longer fits (a tool retired later)
 * answers an empty layout rather than breaking the chart.
 */
export async function chartLayoutOf(ctx: ServiceContext, userId: number, symbol: string): Promise<ChartLayout> {
  const row = await ctx.db.selectFrom('chart_layouts').select('layout').where('user_id', '=', userId).where('symbol', '=', symbol).executeTakeFirst();
  if (!row) return EMPTY;
  try {
    const parsed = chartLayout.safeParse(JSON.parse(row.layout));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** Replaces the user's layout for the symbol (one upsert, the last save wins) and answers what is stored. */
export async function saveChartLayout(ctx: ServiceContext, userId: number, symbol: string, layout: ChartLayout): Promise<ChartLayout> {
  const at = ctx.now();
  const text = JSON.stringify(layout);
  await ctx.db
    .insertInto('chart_layouts')
    .values({ user_id: userId, symbol, layout: text, updated_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'symbol']).doUpdateSet({ layout: text, updated_at: at }))
    .execute();
  return chartLayoutOf(ctx, userId, symbol);
}
