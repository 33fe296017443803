import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { SymbolRecord } from '@tradeport/contracts';
import { figureText, notEnoughMarginMessage, type Prices } from '@tradeport/trading-math';
import { liveBook } from '../src/terminal/positions-live';
import {
  commissionFor,
  notOfferedMessage,
  hasProblems,
  initialOrderForm,
  orderFormReducer,
  orderPreview,
  orderProblems,
  orderRequest,
  quoteBlock,
  sendableSides,
  stepVolume,
  type OrderContext,
  type OrderForm,
  type OrderFormAction,
  type OrderInstrument,
} from '../src/terminal/order-form';

const EURUSD: OrderInstrument = { Symbol: 'EURUSD', digits: 5, contractSize: 100_000, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, calcMode: 'forex', baseCurrency: 'EUR', quoteCurrency: 'USD', marginRate: 1 };
const USDJPY: OrderInstrument = { Symbol: 'USDJPY', digits: 3, contractSize: 100_000, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, calcMode: 'forex', baseCurrency: 'USD', quoteCurrency: 'JPY', marginRate: 1 };
const XAUUSD: OrderInstrument = { Symbol: 'XAUUSD', digits: 2, contractSize: 100, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 50, calcMode: 'cfd', baseCurrency: 'XAU', quoteCurrency: 'USD', marginRate: 1 };

const book: Record<'EURUSD' | 'USDJPY' | 'XAUUSD', Prices> = { EURUSD: { bid: 1.08, ask: 1.08012 }, USDJPY: { bid: 151.2, ask: 151.214 }, XAUUSD: { bid: 2000.2, ask: 2000.5 } };

function ctx(instrument: OrderInstrument, over: Partial<OrderContext> = {}): OrderContext {
  const p = book[instrument.Symbol as keyof typeof book];
  return { instrument, quote: { ...p, open: true, stale: false }, prices: (s) => book[s as keyof typeof book], leverage: 100, commission: null, account: { balance: '1000.00', credit: '0.00', floating: 0, margin: 0 }, now: Date.UTC(2026, 0, 5, 12), ...over };
}

const run = (actions: OrderFormAction[], start: OrderForm = initialOrderForm('EURUSD')) => actions.reduce(orderFormReducer, start);

describe('order form: margin preview', () => {
  it('previews a Forex Buy margin of V × C / L at the base currency rate and subtracts it and the spread from free margin', () => {
    const form = run([{ type: 'open', symbol: 'EURUSD', instrument: EURUSD }]);
    const preview = orderPreview(form, 'buy', ctx(EURUSD));
    assert.equal(preview.entryPrice, 1.08012);
    // 0.01 × 100,000 / 100 = 10 EUR at 1.08 = 10.80 USD; the spread costs 0.12 USD at once.
    assert.equal(preview.margin?.toFixed(2), '10.80');
    assert.equal(preview.freeMarginAfter?.toFixed(2), '989.08');
  });

  it('previews the commission the fill is charged, as the engine charges it, and takes it from free margin', () => {
    const form = run([{ type: 'open', symbol: 'EURUSD', instrument: EURUSD }, { type: 'setVolume', volume: 0.3 }]);
    assert.equal(orderPreview(form, 'buy', ctx(EURUSD)).commission?.toFixed(2), '0.00', 'a type without commission charges none');
    // 3.50 per lot × 0.3 = 1.05; free margin 1,000 − 324.00 margin − 3.60 spread − 1.05.
    const perLot = orderPreview(form, 'buy', ctx(EURUSD, { commission: { basis: 'lot', amount: 3.5 } }));
    assert.deepEqual([perLot.commission?.toFixed(2), perLot.margin?.toFixed(2), perLot.freeMarginAfter?.toFixed(2)], ['1.05', '324.00', '671.35']);
    // 25 per million: 30,000 EUR at the EURUSD bid of 1.08 = 32,400 USD → 0.81.
    assert.equal(orderPreview(form, 'sell', ctx(EURUSD, { commission: { basis: 'million', amount: 25 } })).commission?.toFixed(2), '0.81');
    // No rate for the notional: no figure rather than a guess, and no free margin after.
    const blind = orderPreview(form, 'buy', ctx(EURUSD, { commission: { basis: 'million', amount: 25 }, prices: () => undefined }));
    assert.deepEqual([blind.commission, blind.freeMarginAfter], [null, null]);
  });

  it("charges an instrument's own commission where the account's type gives it one, else the type's", () => {
    const account = { commission: { basis: 'lot' as const, amount: 2 }, symbolCommissions: [{ symbol: 'XAUUSD', commission: { basis: 'million' as const, amount: 30 } }] };
    assert.deepEqual(commissionFor(account, 'XAUUSD'), { basis: 'million', amount: 30 });
    assert.deepEqual(commissionFor(account, 'EURUSD'), { basis: 'lot', amount: 2 });
    assert.equal(commissionFor({ commission: null, symbolCommissions: [] }, 'EURUSD'), null);
    assert.equal(commissionFor(undefined, 'EURUSD'), null, 'no account yet: none shown');
  });

  it('turns the ticket off for an instrument the account type does not list, and only then', () => {
    const fxOnly = { type: 'FX', instruments: ['EURUSD', 'GBPUSD'] };
    assert.equal(notOfferedMessage(fxOnly, 'EURUSD'), null);
    assert.equal(notOfferedMessage(fxOnly, 'XAUUSD'), 'XAUUSD is not offered on your account type (FX). Buy and Sell are off; positions already open in it can still be closed.');
    assert.equal(notOfferedMessage({ type: 'Standard', instruments: null }, 'XAUUSD'), null, 'a type listing none offers every instrument');
    assert.equal(notOfferedMessage(undefined, 'XAUUSD'), null, 'no account yet: the server decides');
  });

  it('previews a USD-based Forex margin without conversion and a CFD margin at the fill price', () => {
    const jpy = run([{ type: 'open', symbol: 'USDJPY', instrument: USDJPY }]);
    assert.equal(orderPreview(jpy, 'sell', ctx(USDJPY)).margin?.toFixed(2), '10.00');
    const gold = run([{ type: 'open', symbol: 'XAUUSD', volume: 0.1, instrument: XAUUSD }], initialOrderForm('XAUUSD'));
    // 0.1 × 100 × 2000.5 / 100 = 200.05 for a Buy (at the ask); 200.02 for a Sell (at the bid).
    assert.equal(orderPreview(gold, 'buy', ctx(XAUUSD)).margin?.toFixed(2), '200.05');
    assert.equal(orderPreview(gold, 'sell', ctx(XAUUSD)).margin?.toFixed(2), '200.02');
  });

  it("previews the margin times the instrument's margin rate, as the server holds it", () => {
    const heavy: OrderInstrument = { ...XAUUSD, marginRate: 1.5 };
    const gold = run([{ type: 'open', symbol: 'XAUUSD', volume: 0.1, instrument: heavy }], initialOrderForm('XAUUSD'));
    // 0.1 × 100 × 2000.5 / 100 × 1.5 = 300.075, held as 300.08 at the cent.
    assert.equal(orderPreview(gold, 'buy', ctx(heavy)).margin?.toFixed(3), '300.075');
  });

  it('previews a pending order at its own entry price: a stop limit at its limit price', () => {
    const form = run([{ type: 'open', symbol: 'XAUUSD', volume: 1, instrument: XAUUSD }, { type: 'setOrderType', orderType: 'buy_stop_limit', quote: book.XAUUSD, digits: 2 }, { type: 'setPrice', value: 2010 }, { type: 'setStopLimitPrice', value: 2005 }]);
    const preview = orderPreview(form, 'buy', ctx(XAUUSD));
    assert.equal(preview.entryPrice, 2005);
    assert.equal(preview.margin?.toFixed(2), '2005.00');
    assert.equal(preview.freeMarginAfter?.toFixed(2), '-1005.00');
  });

  it("names the free margin after as the server's refusal does: from the unrounded live figures, cents shown with 4 decimals", () => {
    // The server test of the refusal (server/test/trading.test.ts) holds the same account: 100.00
    // USD, 0.01 USDJPY bought at 151.22 and valued at 151.2, then 0.09 EURUSD at 1.10057.
    const prices = (s: string) => ({ USDJPY: { bid: 151.2, ask: 151.22 }, EURUSD: { bid: 1.10037, ask: 1.10057 } })[s];
    const record = (r: OrderInstrument): SymbolRecord => ({ ...r, ID: 1, CurrencyType: 'Forex', description: r.Symbol, sessions: [], swapLong: 0, swapShort: 0 });
    const known = new Map([USDJPY, EURUSD].map((r) => [r.Symbol, record(r)]));
    const held = { ticket: 1, symbol: 'USDJPY', type: 'Buy' as const, volume: 0.01, orginalPrice: 151.22, swap: '0.00' };
    const account = liveBook({ balance: '100.00', credit: '0.00' }, [held], known, 100, prices);
    assert.ok(account);
    const form = run([{ type: 'open', symbol: 'EURUSD', volume: 0.09, instrument: EURUSD }]);
    const preview = orderPreview(form, 'buy', ctx(EURUSD, { quote: { bid: 1.10037, ask: 1.10057, open: true, stale: false }, prices, account }));
    assert.equal(notEnoughMarginMessage(preview.margin!, preview.freeMarginAfter!), 'Not enough free margin: this order needs 99.0300 USD of margin; free margin would be -10.9700 USD.');
    // Starting from the free margin rounded to cents (89.87), as the ticket did, said -10.96.
    assert.equal(figureText(preview.margin!.negated().plus('89.87').plus('-1.8')), '-10.9600');
  });

  it('shows no preview without a current price, the leverage or a volume', () => {
    const form = run([{ type: 'open', symbol: 'EURUSD', instrument: EURUSD }]);
    assert.equal(orderPreview(form, 'buy', ctx(EURUSD, { quote: { bid: null, ask: null, open: true, stale: false } })).margin, null);
    assert.equal(orderPreview(form, 'buy', ctx(EURUSD, { leverage: null })).margin, null);
    assert.equal(orderPreview(form, 'buy', ctx(EURUSD, { quote: { ...book.EURUSD, open: true, stale: true } })).margin, null, 'not at a stale price');
    assert.equal(orderPreview(run([{ type: 'setVolume', volume: 0 }], form), 'buy', ctx(EURUSD)).margin, null);
  });

  it('values margin linearly in volume, to the cent, for any volume on the grid', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (lots) => {
        const volume = lots / 100;
        const form = run([{ type: 'open', symbol: 'EURUSD', volume, instrument: EURUSD }]);
        const margin = orderPreview(form, 'sell', ctx(EURUSD)).margin;
        assert.equal(margin?.toFixed(2), (lots * 10.8).toFixed(2));
      }),
    );
  });
});

describe('order form: rules', () => {
  it('opens with the spec defaults: Instant Execution, volume 0.01, no stops, empty comment', () => {
    const form = run([{ type: 'open', symbol: 'EURUSD', side: 'sell', instrument: EURUSD }]);
    assert.deepEqual({ ...form, revision: 0 }, { ...initialOrderForm('EURUSD', 'sell', 0.01), revision: 0 });
    assert.deepEqual(sendableSides(form), ['sell', 'buy']);
  });

  it('sends the chosen type: a market order to addTrades, a pending type to addPendingOrder with its prices and expiry', () => {
    const market = run([{ type: 'open', symbol: 'EURUSD', instrument: EURUSD }, { type: 'setComment', value: '  first  ' }]);
    assert.deepEqual(orderRequest(market, 'sell'), { call: 'addTrades', body: { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.01, stopLoss: 0, takeProfit: 0, comment: 'first' } });
    const pending = run([{ type: 'setOrderType', orderType: 'sell_stop_limit', quote: book.EURUSD, digits: 5 }, { type: 'setExpiry', value: '2026-01-06T10:30' }], market);
    const request = orderRequest(pending, 'sell');
    assert.equal(request.call, 'addPendingOrder');
    assert.equal(request.call === 'addPendingOrder' && request.body.orderType, 'sell_stop_limit');
    assert.equal(request.call === 'addPendingOrder' && request.body.price, 1.0799);
    assert.equal(request.call === 'addPendingOrder' && request.body.stopLimitPrice, 1.08);
    assert.equal(request.call === 'addPendingOrder' && request.body.expiration, new Date('2026-01-06T10:30').getTime());
    assert.deepEqual(sendableSides(pending), ['sell']);
  });

  it('sends a trailing stop with a market order and with a pending one, and refuses one that is not whole points', () => {
    const market = run([{ type: 'open', symbol: 'EURUSD', instrument: EURUSD }, { type: 'setTrailing', value: { distance: 150, activation: 0, step: 5 } }]);
    assert.deepEqual(orderRequest(market, 'buy'), { call: 'addTrades', body: { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01, stopLoss: 0, takeProfit: 0, comment: '', trailingStop: { distance: 150, activation: 0, step: 5 } } });
    assert.deepEqual(orderProblems(market, 'buy', ctx(EURUSD)), {});
    const bad = run([{ type: 'setTrailing', value: { distance: Number.NaN, activation: 0, step: 1 } }], market);
    assert.match(orderProblems(bad, 'buy', ctx(EURUSD)).trailing ?? '', /trailing distance must be a whole number of points/);
    const badPending = run([{ type: 'setOrderType', orderType: 'buy_limit', quote: book.EURUSD, digits: 5 }], bad);
    assert.match(orderProblems(badPending, 'buy', ctx(EURUSD)).trailing ?? '', /trailing distance must be a whole number of points/);
    const pending = run([{ type: 'setTrailing', value: { distance: 80, activation: 10, step: 2 } }], badPending);
    assert.equal(orderProblems(pending, 'buy', ctx(EURUSD)).trailing, undefined);
    assert.deepEqual((orderRequest(pending, 'buy').body as { trailingStop?: unknown }).trailingStop, { distance: 80, activation: 10, step: 2 });
    assert.equal(run([{ type: 'reset' }], market).trailing, null);
  });

  it('puts a new pending price a few points from the market on its valid side, so it is accepted as placed', () => {
    for (const orderType of ['buy_limit', 'sell_limit', 'buy_stop', 'sell_stop', 'buy_stop_limit', 'sell_stop_limit'] as const) {
      const form = run([{ type: 'setOrderType', orderType, quote: book.EURUSD, digits: 5 }]);
      const side = orderType.startsWith('buy') ? 'buy' : 'sell';
      assert.deepEqual(orderProblems(form, side, ctx(EURUSD)), {}, orderType);
    }
  });

  it('refuses a pending price on the wrong side, a missing limit price and a past expiry, each on its own field', () => {
    const buyLimit = run([{ type: 'setOrderType', orderType: 'buy_limit', quote: book.EURUSD, digits: 5 }, { type: 'setPrice', value: 1.09 }, { type: 'setExpiry', value: '2025-12-31T00:00' }]);
    const problems = orderProblems(buyLimit, 'buy', ctx(EURUSD));
    assert.match(problems.price ?? '', /Buy Limit must be below the current ask/);
    assert.match(problems.expiry ?? '', /future/);
    const stopLimit = run([{ type: 'setOrderType', orderType: 'buy_stop_limit', quote: book.EURUSD, digits: 5 }, { type: 'setStopLimitPrice', value: 0 }]);
    assert.match(orderProblems(stopLimit, 'buy', ctx(EURUSD)).stopLimitPrice ?? '', /limit price/);
  });

  it('judges stops against the side being sent: a Buy stop loss below the bid is wrong for a Sell', () => {
    const form = run([{ type: 'setStopLoss', value: 1.0799 }, { type: 'setTakeProfit', value: 1.081 }]);
    assert.deepEqual(orderProblems(form, 'buy', ctx(EURUSD)), {});
    const sell = orderProblems(form, 'sell', ctx(EURUSD));
    assert.match(sell.stopLoss ?? '', /stop loss must be above the current ask/);
    assert.match(sell.takeProfit ?? '', /take profit must be below the current ask/);
    assert.ok(hasProblems(sell));
  });

  it('refuses a volume off the instrument grid or outside its limits', () => {
    assert.match(orderProblems(run([{ type: 'setVolume', volume: 0.015 }]), 'buy', ctx(EURUSD)).volume ?? '', /steps of 0.01/);
    assert.match(orderProblems(run([{ type: 'setVolume', volume: 101 }]), 'buy', ctx(EURUSD)).volume ?? '', /maximum volume is 100/);
    assert.match(orderProblems(run([{ type: 'setVolume', volume: 0 }]), 'buy', ctx(EURUSD)).volume ?? '', /positive/);
  });

  it('steps volume on the grid and never below the minimum nor above the maximum', () => {
    assert.equal(stepVolume(0.01, -1, EURUSD), 0.01);
    assert.equal(stepVolume(0.01, 1, EURUSD), 0.02);
    assert.equal(stepVolume(0.015, 1, EURUSD), 0.02);
    assert.equal(stepVolume(0.015, -1, EURUSD), 0.01);
    assert.equal(stepVolume(100, 1, EURUSD), 100);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom(1 as const, -1 as const), (units, direction) => {
        const next = stepVolume(units / 100, direction, EURUSD);
        assert.ok(next >= 0.01 && next <= 100);
        assert.equal(Math.round(next * 100), Math.min(10_000, Math.max(1, units + direction)));
      }),
    );
  });

  it('takes a new revision on every edit and resets to the spec defaults after a success', () => {
    const edited = run([{ type: 'open', symbol: 'EURUSD', instrument: EURUSD }, { type: 'setVolume', volume: 0.5 }, { type: 'setStopLoss', value: 1.07 }, { type: 'setComment', value: 'x' }, { type: 'setOrderType', orderType: 'buy_limit', quote: book.EURUSD, digits: 5 }]);
    assert.equal(edited.revision, 5);
    assert.equal(orderFormReducer(edited, { type: 'setSide', side: 'sell' }).revision, edited.revision, 'choosing a side is not an edit: a retry keeps its key');
    const reset = orderFormReducer(edited, { type: 'reset' });
    assert.ok(reset.revision > edited.revision);
    assert.deepEqual([reset.volume, reset.stopLoss, reset.takeProfit, reset.comment, reset.type], [0.01, 0, 0, '', 'instant']);
  });

  it('blocks every order on a closed market or a stale or missing quote, with the reason', () => {
    assert.equal(quoteBlock({ quote: { bid: 1, ask: 1.1, open: true, stale: false } }), null);
    assert.deepEqual(quoteBlock({ quote: { bid: 1, ask: 1.1, open: false, stale: false } }), { kind: 'closed', message: 'Market Closed' });
    assert.equal(quoteBlock({ quote: { bid: 1, ask: 1.1, open: true, stale: true } })?.kind, 'stale');
    assert.equal(quoteBlock({ quote: null })?.kind, 'stale');
  });
});
