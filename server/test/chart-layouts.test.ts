import assert from 'node:assert/strict';
import { calls, CHART_INDICATORS, INDICATOR_SETTINGS, MAX_CHART_DRAWINGS, MAX_CHART_INDICATORS, MAX_CHART_NOTES, MAX_NOTE_LENGTH, type ChartLayout } from '@tradeport/contracts';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInTrader } from './helpers/client';
import { assertFailure, roomyLimits } from './helpers/trading';

const GET = calls.getChartLayout.path;
const SAVE = calls.saveChartLayout.path;
type Trader = Awaited<ReturnType<typeof signedInTrader>>;

const T0 = Date.UTC(2026, 0, 5, 10);
const trend = (value = 1.1) => ({ tool: 'trendLine', points: [{ timestamp: T0, value }, { timestamp: T0 + 3_600_000, value: value + 0.01 }], color: '#1c7ed6', width: 2 });
const layout = (): ChartLayout => ({
  drawings: [trend() as ChartLayout['drawings'][number], { tool: 'pitchfork', points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 1, value: 1.2 }, { timestamp: T0 + 2, value: 1.05 }], color: '#e8590c', width: 1 }],
  indicators: [{ name: 'RSI', params: [14], source: 'close', colors: ['#7048e8'] }, { name: 'MA', params: [20], source: 'hl2', colors: ['#f08c00'] }],
});

/** The terminal chart's drawings and indicators, kept per trader and symbol on the server. */
describe('chart layouts', () => {
  let t: TestApp;
  let a: Trader;
  let b: Trader;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    a = await signedInTrader(t);
    b = await signedInTrader(t);
  });
  after(() => t.close());

  test('a symbol never saved answers an empty layout', async () => {
    const r = await a.client.get(`${GET}?symbol=EURUSD`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', data: { symbol: 'EURUSD', layout: { drawings: [], indicators: [] } } });
  });

  test('a saved layout is answered, read back in another session, and kept per symbol and per trader', async () => {
    const saved = await a.client.post(SAVE, { symbol: 'eurusd', layout: layout() });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body, { status: 'success', data: { symbol: 'EURUSD', layout: layout() } });
    const again = new Client(t);
    assert.equal((await again.post('/login.php', { email: a.email, password: a.password })).body.status, 'Success');
    assert.deepEqual((await again.get(`${GET}?symbol=EURUSD`)).body.data, { symbol: 'EURUSD', layout: layout() });
    assert.deepEqual((await a.client.get(`${GET}?symbol=GBPUSD`)).body.data.layout, { drawings: [], indicators: [] });
    assert.deepEqual((await b.client.get(`${GET}?symbol=EURUSD`)).body.data.layout, { drawings: [], indicators: [] });
  });

  test('a later save replaces the whole layout', async () => {
    await a.client.post(SAVE, { symbol: 'EURUSD', layout: layout() });
    const next = { drawings: [trend(1.3)], indicators: [] };
    assert.equal((await a.client.post(SAVE, { symbol: 'EURUSD', layout: next })).status, 200);
    assert.deepEqual((await a.client.get(`${GET}?symbol=EURUSD`)).body.data.layout, next);
  });

  test('a save is read back at once, and only that trader and symbol change', async () => {
    await a.client.post(SAVE, { symbol: 'EURUSD', layout: layout() });
    const read = async (who: Trader, symbol = 'EURUSD') => {
      const r = await who.client.get(`${GET}?symbol=${symbol}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data;
    };
    assert.deepEqual(await read(a), { symbol: 'EURUSD', layout: layout() });
    const empty = await read(b);
    assert.deepEqual(empty.layout, { drawings: [], indicators: [] });
    assert.deepEqual(await read(b), empty);

    const next = { drawings: [trend(1.25)], indicators: [{ name: 'MA' as const, params: [50], source: 'close' as const, colors: ['#000000'] }] };
    assert.equal((await a.client.post(SAVE, { symbol: 'EURUSD', layout: next })).status, 200);
    assert.deepEqual(await read(a), { symbol: 'EURUSD', layout: next });
    assert.deepEqual(await read(a, 'GBPUSD'), { symbol: 'GBPUSD', layout: { drawings: [], indicators: [] } });
    assert.deepEqual((await read(b)).layout, { drawings: [], indicators: [] });
    // The first save of another trader's layout shows at once too (a row where there was none).
    assert.equal((await b.client.post(SAVE, { symbol: 'EURUSD', layout: next })).status, 200);
    assert.deepEqual(await read(b), { symbol: 'EURUSD', layout: next });
    assert.deepEqual(await read(a), { symbol: 'EURUSD', layout: next });
  });

  test('a stored row that no longer fits the schema answers the empty layout, also after the good one was read', async () => {
    await a.client.post(SAVE, { symbol: 'USDJPY', layout: layout() });
    assert.deepEqual((await a.client.get(`${GET}?symbol=USDJPY`)).body.data.layout, layout());
    assert.deepEqual((await a.client.get(`${GET}?symbol=USDJPY`)).body.data.layout, layout());
    const store = (text: string) => t.ctx.db.updateTable('chart_layouts').set({ layout: text }).where('user_id', '=', a.id).where('symbol', '=', 'USDJPY').execute();
    // A tool retired since the save, then a row that is not JSON at all.
    await store(JSON.stringify({ drawings: [{ ...trend(), tool: 'spiral' }], indicators: [] }));
    for (let i = 0; i < 2; i++) assert.deepEqual((await a.client.get(`${GET}?symbol=USDJPY`)).body, { status: 'success', data: { symbol: 'USDJPY', layout: { drawings: [], indicators: [] } } });
    await store('{"drawings":');
    assert.deepEqual((await a.client.get(`${GET}?symbol=USDJPY`)).body.data.layout, { drawings: [], indicators: [] });
    await store(JSON.stringify(layout()));
    assert.deepEqual((await a.client.get(`${GET}?symbol=USDJPY`)).body.data.layout, layout());
  });

  test('Fibonacci drawings, text notes, line styles and locks are kept as saved; a note’s markup is kept as text', async () => {
    const drawn: ChartLayout = {
      drawings: [
        { tool: 'fibRetracement', points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 3_600_000, value: 1.2 }], color: '#2f9e44', width: 1, lineStyle: 'dotted' },
        { tool: 'fibExtension', points: [{ timestamp: T0, value: 1.1 }, { timestamp: T0 + 1, value: 1.2 }, { timestamp: T0 + 2, value: 1.15 }], color: '#7048e8', width: 2, locked: true },
        { tool: 'textNote', points: [{ timestamp: T0, value: 1.12 }], color: '#e03131', width: 3, text: 'Support held twice\n<img src=x onerror=alert(1)> & “quotes”', locked: true },
        { ...(trend() as ChartLayout['drawings'][number]), lineStyle: 'dashed' },
      ],
      indicators: [],
    };
    const saved = await a.client.post(SAVE, { symbol: 'XAUUSD', layout: drawn });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.data.layout, drawn);
    const read = await a.client.get(`${GET}?symbol=XAUUSD`);
    assert.match(String(read.headers.get('content-type')), /^application\/json/);
    assert.deepEqual(read.body.data.layout, drawn);
    // A note's text is trimmed; a drawing saved before line styles and locks existed reads back as it was.
    const spaced = { ...drawn.drawings[2]!, text: '  Breakout  ' };
    assert.deepEqual((await a.client.post(SAVE, { symbol: 'XAUUSD', layout: { drawings: [spaced, trend()], indicators: [] } })).body.data.layout.drawings, [{ ...spaced, text: 'Breakout' }, trend()]);
  });

  test('bad layouts are refused with a message and store nothing', async () => {
    await a.client.post(SAVE, { symbol: 'EURUSD', layout: layout() });
    // The message names the item at fault ("Drawing 1: …"); each ends with the rule broken.
    const ending = (m: string) => new RegExp(`${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const bad = async (body: unknown, message: string | RegExp) => assertFailure(await a.client.post(SAVE, body), 400, typeof message === 'string' ? ending(message) : message);
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), tool: 'spiral' }], indicators: [] } }, 'Unknown drawing tool: spiral.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), points: [{ timestamp: T0, value: 'NaN' }] }], indicators: [] } }, 'A point’s price must be a finite number.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), points: [{ timestamp: T0, value: Number.POSITIVE_INFINITY }] }], indicators: [] } }, /finite|out of range/);
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), points: [] }], indicators: [] } }, 'A drawing needs at least one point.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), points: Array(4).fill({ timestamp: T0, value: 1 }) }], indicators: [] } }, 'A drawing has at most 3 points.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), color: 'red' }], indicators: [] } }, 'A colour must be #rrggbb.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), width: 9 }], indicators: [] } }, 'A line width must be 1 to 4.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), script: '<b>' }], indicators: [] } }, /Unrecognized key|script/);
    await bad({ symbol: 'EURUSD', layout: { drawings: Array(MAX_CHART_DRAWINGS + 1).fill(trend()), indicators: [] } }, `A chart keeps at most ${MAX_CHART_DRAWINGS} drawings per symbol.`);
    await bad({ symbol: 'EURUSD', layout: { drawings: [], indicators: [{ name: 'ICHIMOKU', params: [9], source: 'close', colors: ['#000000'] }] } }, 'Unknown indicator: ICHIMOKU.');
    const note = { tool: 'textNote', points: [{ timestamp: T0, value: 1.1 }], color: '#1c7ed6', width: 2, text: 'Note' };
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), lineStyle: 'wavy' }], indicators: [] } }, 'Drawing 1: A line style must be solid, dashed or dotted.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...trend(), locked: 'yes' }], indicators: [] } }, 'locked must be true or false.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [trend(), { ...trend(), text: 'hi' }], indicators: [] } }, 'Drawing 2: Only a text note has text.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...note, text: undefined }], indicators: [] } }, 'A text note needs its text.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...note, text: ' \n ' }], indicators: [] } }, 'A note needs some text.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...note, text: 'x'.repeat(MAX_NOTE_LENGTH + 1) }], indicators: [] } }, `A note has at most ${MAX_NOTE_LENGTH} characters.`);
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...note, text: '1\n2\n3\n4\n5\n6' }], indicators: [] } }, 'A note has at most 5 lines.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...note, text: 'escape\u001b[31m' }], indicators: [] } }, 'A note must not contain control characters.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [{ ...note, text: 42 }], indicators: [] } }, 'A note’s text must be a string.');
    await bad({ symbol: 'EURUSD', layout: { drawings: Array(MAX_CHART_NOTES + 1).fill(note), indicators: [] } }, `A chart keeps at most ${MAX_CHART_NOTES} text notes per symbol.`);
    await bad({ symbol: 'EURUSD', layout: { drawings: [], indicators: [{ name: 'RSI', params: [0], source: 'close', colors: ['#000000'] }] } }, 'Indicator 1: RSI Period must be a whole number from 1 to 500.');
    await bad({ symbol: 'NOPE', layout: { drawings: [], indicators: [] } }, 'Unknown symbol: NOPE.');
    await bad({ symbol: 'EURUSD' }, 'layout must be an object with drawings and indicators.');
    await bad({ symbol: 'EURUSD', layout: { drawings: [], indicators: [] }, extra: 1 }, 'Unknown field: extra. Send symbol and layout.');
    assertFailure(await a.client.post(SAVE, '{"symbol":'), 400);
    assert.deepEqual((await a.client.get(`${GET}?symbol=EURUSD`)).body.data.layout, layout());
    assertFailure(await a.client.get(`${GET}?symbol=NOPE`), 400, 'Unknown symbol: NOPE.');
    assertFailure(await a.client.get(GET), 400, 'symbol is required.');
  });

  test('every indicator the chart offers is kept, with its settings at their lowest and at their highest bounds', async () => {
    assert.ok(CHART_INDICATORS.length >= 15, `${CHART_INDICATORS.length} indicators`);
    const at = (bound: 'min' | 'max') => CHART_INDICATORS.map((name) => ({ name, params: INDICATOR_SETTINGS[name].map((s) => s[bound]), source: 'hlc3' as const, colors: ['#1c7ed6', '#f08c00'] }));
    for (const list of [at('min'), at('max')]) {
      for (let from = 0; from < list.length; from += MAX_CHART_INDICATORS) {
        const indicators = list.slice(from, from + MAX_CHART_INDICATORS);
        const r = await a.client.post(SAVE, { symbol: 'AUDUSD', layout: { drawings: [], indicators } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual((await a.client.get(`${GET}?symbol=AUDUSD`)).body.data.layout.indicators, indicators);
      }
    }
  });

  test('an indicator’s settings out of their bounds, of the wrong count or disagreeing are refused, naming the setting, and nothing is stored', async () => {
    await a.client.post(SAVE, { symbol: 'EURUSD', layout: layout() });
    const indicator = (name: string, params: unknown[]) => ({ symbol: 'EURUSD', layout: { drawings: [], indicators: [{ name: 'MA', params: [20], source: 'close', colors: ['#000000'] }, { name, params, source: 'close', colors: ['#000000'] }] } });
    const refused = async (name: string, params: unknown[], message: string) => assertFailure(await a.client.post(SAVE, indicator(name, params)), 400, `Indicator 2: ${message}`);
    await refused('KDJ', [9, 3], 'KDJ takes 3 settings (%K period, %K smoothing, %D smoothing).');
    await refused('KDJ', [9, 3, 3, 3], 'KDJ takes 3 settings (%K period, %K smoothing, %D smoothing).');
    await refused('KDJ', [9, 101, 3], 'KDJ %K smoothing must be a whole number from 1 to 100.');
    await refused('WR', [14.5], 'WR Period must be a whole number from 1 to 500.');
    await refused('WR', [501], 'WR Period must be a whole number from 1 to 500.');
    await refused('DMI', [14, 1], 'DMI ADXR period must be a whole number from 2 to 500.');
    await refused('BOLL', [20, 0], 'BOLL Deviations must be from 0.1 to 10.');
    await refused('SAR', [0.05, 2, 20], 'SAR Start (%) must be from 0.1 to 10.');
    await refused('SAR', [5, 2, 4], 'SAR Start and Step must not be more than the Maximum.');
    await refused('SMA', [5, 6], 'SMA Weight must not be more than the period.');
    await refused('PVT', [12], 'PVT takes no settings.');
    await refused('CCI', ['20'], 'An indicator setting must be a number.');
    await refused('CCI', [null], 'An indicator setting must be a number.');
    assertFailure(await a.client.post(SAVE, { symbol: 'EURUSD', layout: { drawings: [], indicators: [{ name: 'RSI', params: [14], source: 'close', colors: [] }] } }), 400, 'Indicator 1: An indicator needs a colour.');
    assert.deepEqual((await a.client.get(`${GET}?symbol=EURUSD`)).body.data.layout, layout());
  });

  test('the largest allowed layout fits the body limit and is kept whole', async () => {
    const drawings = Array.from({ length: MAX_CHART_DRAWINGS }, (_, i) => ({ tool: 'triangle' as const, points: [0, 1, 2].map((k) => ({ timestamp: T0 + i * 1000 + k, value: 1.123456789 + k })), color: '#123abc', width: 4 }));
    const indicators = Array.from({ length: 10 }, () => ({ name: 'MACD' as const, params: [12, 26, 9], source: 'hlc3' as const, colors: ['#111111', '#222222', '#333333', '#444444'] }));
    const r = await b.client.post(SAVE, { symbol: 'GBPUSD', layout: { drawings, indicators } });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.equal((await b.client.get(`${GET}?symbol=GBPUSD`)).body.data.layout.drawings.length, MAX_CHART_DRAWINGS);
  });

  test('the largest layout with notes (every note full of three-byte characters, every drawing styled and locked) fits the body limit', async () => {
    const far = (i: number, k: number) => ({ timestamp: 8.64e15 - i * 10 - k, value: -999_999_999_999.123 + k });
    const notes = Array.from({ length: MAX_CHART_NOTES }, (_, i) => ({ tool: 'textNote' as const, points: [far(i, 0)], color: '#123abc', width: 4, lineStyle: 'dashed' as const, locked: true, text: '価'.repeat(MAX_NOTE_LENGTH) }));
    const others = Array.from({ length: MAX_CHART_DRAWINGS - MAX_CHART_NOTES }, (_, i) => ({ tool: 'fibRetracement' as const, points: [0, 1, 2].map((k) => far(i, k)), color: '#123abc', width: 4, lineStyle: 'dotted' as const, locked: true }));
    const indicators = Array.from({ length: 10 }, () => ({ name: 'MACD' as const, params: [499, 500, 100], source: 'hlc3' as const, colors: ['#111111', '#222222', '#333333', '#444444'] }));
    const body = { symbol: 'GBPUSD', layout: { drawings: [...notes, ...others], indicators } };
    assert.ok(Buffer.byteLength(JSON.stringify(body)) > 36_000, `a layout near the limit: ${Buffer.byteLength(JSON.stringify(body))} bytes`);
    const r = await b.client.post(SAVE, body);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual((await b.client.get(`${GET}?symbol=GBPUSD`)).body.data.layout, body.layout);
  });

  test('only signed-in traders may read or save layouts', async () => {
    const anonymous = new Client(t);
    assertFailure(await anonymous.get(`${GET}?symbol=EURUSD`), 401);
    assertFailure(await anonymous.post(SAVE, { symbol: 'EURUSD', layout: layout() }), 401);
    const admin = await signedInAdmin(t);
    assertFailure(await admin.get(`${GET}?symbol=EURUSD`), 403);
    assertFailure(await admin.post(SAVE, { symbol: 'EURUSD', layout: layout() }), 403);
  });
});
