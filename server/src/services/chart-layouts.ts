import { chartLayout, type ChartLayout } from '@tradeport/contracts';
import { prepared, type Param } from '../storage/prepared';
import type { ServiceContext } from './context';

const EMPTY: ChartLayout = { drawings: [], indicators: [] };

// At most one row: (user_id, symbol) is the table's primary key.
const storedLayout = prepared((db, param: Param<{ userId: number; symbol: string }>) => db.selectFrom('chart_layouts').select('layout').where('user_id', '=', param('userId')).where('symbol', '=', param('symbol')));

/**
 * The layout a symbol's stored rows (none or one) show; a symbol never saved has none. A stored row is read back through the
 * same schema it was saved with, so a row that no longer fits (a tool retired later) answers an
 * empty layout rather than breaking the chart.
 */
function layoutOfRows(rows: readonly { layout: string }[]): ChartLayout {
  const row = rows[0];
  if (!row) return EMPTY;
  try {
    const parsed = chartLayout.safeParse(JSON.parse(row.layout));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** A user's chart layout for one symbol (see `layoutOfRows`). */
export async function chartLayoutOf(ctx: ServiceContext, userId: number, symbol: string): Promise<ChartLayout> {
  return layoutOfRows(await storedLayout.all(ctx.db, { userId, symbol }));
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
