import { calls, EXPOSURE_TOP_ACCOUNTS, MARGIN_BANDS, type ExposureResponse } from '@tradeport/contracts';
import { Dec } from '@tradeport/trading-math';
import type Decimal from 'decimal.js';
import type { FastifyInstance } from 'fastify';
import { formatCents, roundToCents } from '../../../domain/money';
import { installationTerms } from '../../../services/account-types';
import { isoTime } from '../../../services/context';
import { exposureByInstrument, largestFloating, marginBand, type MarginBand } from '../../../trading/exposure';
import type { OpenPosition } from '../../../trading/engine';
import { registerCall } from '../call-route';

const usd = (d: Decimal) => formatCents(roundToCents(d));
const usdOrNull = (d: Decimal | null) => (d === null ? null : usd(d));

/**
 * The broker's exposure (docs/design.md#exposure), live: read from the positions the engine holds
 * and valued at its prices, so it runs on the engine leader (cluster/engine-calls.ts). Only the
 * accounts holding positions are read from the database, 500 a query.
 */
export function exposureRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;
  const book = app.market.book;
  const installation = installationTerms(ctx.config);

  registerCall(app, calls.getExposure, async ({ query }): Promise<ExposureResponse> => {
    const positions: OpenPosition[] = [];
    const heldBy = new Map<number, number>();
    for (const p of engine.openPositions()) {
      if (p.accountKind !== query.accountKind) continue;
      positions.push(p);
      heldBy.set(p.accountId, (heldBy.get(p.accountId) ?? 0) + 1);
    }
    const instruments = exposureByInstrument(positions, (s) => book.instruments.get(s), (s) => book.get(s), (p) => engine.floatingProfit(p));

    const ids = [...heldBy.keys()];
    // Each account's row as shown, with its floating profit to rank it by and its margin band (none: no margin held).
    const accounts: { accountId: number; floating: Decimal; band: MarginBand | null; row: ExposureResponse['largestProfit'][number] }[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await ctx.db
        .selectFrom('trading_accounts as a')
        .innerJoin('account_types as t', 't.id', 'a.account_type_id')
        .innerJoin('users as u', 'u.id', 'a.user_id')
        .select(['a.id', 'a.number', 'a.user_id', 'a.balance_cents', 'a.credit_cents', 'a.leverage', 't.name as type_name', 't.margin_call_level', 't.stop_out_level', 'u.first_name', 'u.last_name', 'u.email'])
        .where('a.id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) {
        const f = engine.figures(r.id, Number(r.balance_cents), Number(r.credit_cents), r.leverage);
        const marginCall = r.margin_call_level === null ? installation.marginCallLevel : Number(r.margin_call_level);
        const stopOut = r.stop_out_level === null ? installation.stopOutLevel : Number(r.stop_out_level);
        accounts.push({
          accountId: r.id,
          floating: f.floating,
          band: f.margin.isZero() ? null : marginBand(f.marginLevel, marginCall, stopOut),
          row: {
            accountId: r.id,
            accountNumber: Number(r.number),
            traderId: r.user_id,
            traderName: `${r.first_name} ${r.last_name}`.trim(),
            traderEmail: r.email,
            type: r.type_name,
            positions: heldBy.get(r.id) ?? 0,
            floating: usd(f.floating),
            equity: usd(f.equity),
            marginLevel: f.marginLevel.toFixed(2),
          },
        });
      }
    }
    const top = largestFloating(accounts, EXPOSURE_TOP_ACCOUNTS);

    const sum = (pick: (r: (typeof instruments)[number]) => Decimal | null) => instruments.reduce((s, r) => s.plus(pick(r) ?? 0), new Dec(0));
    const longUsd = sum((r) => r.longUsd);
    const shortUsd = sum((r) => r.shortUsd);
    return {
      status: 'success',
      asOf: isoTime(ctx.now()),
      totals: {
        positions: positions.length,
        accounts: accounts.length,
        longUsd: usd(longUsd),
        shortUsd: usd(shortUsd),
        netUsd: usd(longUsd.minus(shortUsd)),
        floating: usd(sum((r) => r.floating)),
        unvalued: instruments.reduce((n, r) => n + r.unvalued, 0),
      },
      instruments: instruments.map((r) => ({
        symbol: r.symbol,
        group: r.group,
        positions: r.positions,
        longLots: r.longLots.toNumber(),
        shortLots: r.shortLots.toNumber(),
        netLots: r.longLots.minus(r.shortLots).toNumber(),
        longUsd: usdOrNull(r.longUsd),
        shortUsd: usdOrNull(r.shortUsd),
        netUsd: r.longUsd === null || r.shortUsd === null ? null : usd(r.longUsd.minus(r.shortUsd)),
        floating: usdOrNull(r.floating),
      })),
      largestProfit: top.profit.map((a) => a.row),
      largestLoss: top.loss.map((a) => a.row),
      marginLevels: MARGIN_BANDS.map((band) => ({ band, accounts: accounts.filter((a) => a.band === band).length })),
    };
  });
}
