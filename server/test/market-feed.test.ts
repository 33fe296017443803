import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_CATALOGUE_FILE, type CatalogueEntry } from '../src/market/catalogue';
import { FEED_TOKEN, startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInTrader } from './helpers/client';

// The push feed, quotes, the catalogue and candles over real HTTP. Every app here runs on the
// injected clock, which starts Wednesday 2026-03-04 10:00 UTC; ticks carry times chosen by the test.

const at = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);
const WEDNESDAY_10 = at('2026-03-04T10:00');

interface CatalogueFile {
  $comment?: string;
  schedules: Record<string, string[]>;
  instruments: CatalogueEntry[];
}

const defaultCatalogue = (): CatalogueFile => JSON.parse(readFileSync(DEFAULT_CATALOGUE_FILE, 'utf8')) as CatalogueFile;

function feedClient(t: TestApp, token: string | null = FEED_TOKEN): Client {
  // A price bridge is a server: no Origin, no cookies, just its token.
  return new Client(t, { origin: null, headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}

async function push(t: TestApp, ticks: unknown[]): Promise<void> {
  const r = await feedClient(t).post('/feed/ticks', { ticks });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body, { status: 'success', message: `Accepted ${ticks.length} of ${ticks.length} ticks.`, accepted: ticks.length, refused: [] });
}

/** Signs in again: moving the injected clock by an hour or more ends idle sessions. */
async function signIn(t: TestApp, who: { email: string; password: string }): Promise<Client> {
  const client = new Client(t);
  const r = await client.post('/login.php', { email: who.email, password: who.password });
  assert.equal(r.body.status, 'Success', JSON.stringify(r.body));
  return client;
}

const QUOTE_KEYS = ['ask', 'bid', 'open', 'stale', 'symbol', 'time'];

describe('push feed: authentication', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  const body = { ticks: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }] };
  const otherSameLength = FEED_TOKEN.slice(0, -1) + (FEED_TOKEN.endsWith('9') ? '8' : '9');
  const refusedHeaders: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer wrong-token-abcdefghijklmnop' }],
    ['a wrong token of the same length', { authorization: `Bearer ${otherSameLength}` }],
    ['the token with a character more', { authorization: `Bearer ${FEED_TOKEN}x` }],
    ['the token with a character less', { authorization: `Bearer ${FEED_TOKEN.slice(0, -1)}` }],
    ['a prefix of the token', { authorization: `Bearer ${FEED_TOKEN.slice(0, 4)}` }],
    ['Basic credentials carrying the token', { authorization: `Basic ${Buffer.from(`feed:${FEED_TOKEN}`).toString('base64')}` }],
    ['the token under the Basic scheme', { authorization: `Basic ${FEED_TOKEN}` }],
    ['the bare token without a scheme', { authorization: FEED_TOKEN }],
    ['an empty Bearer token', { authorization: 'Bearer ' }],
    ['the token in another header', { 'x-feed-token': FEED_TOKEN }],
  ];

  for (const [what, headers] of refusedHeaders) {
    test(`${what} → 401 and the book is unchanged`, async () => {
      const before = t.app.market.book.all();
      const r = await new Client(t, { origin: null, headers }).post('/feed/ticks', body);
      assert.equal(r.status, 401);
      assert.equal(r.body.status, 'Failure');
      assert.match(r.body.message, /feed token/i);
      assert.deepEqual(t.app.market.book.all(), before);
      assert.equal(t.app.market.book.get('EURUSD'), undefined);
    });
  }

  test('the token in the query string is not accepted', async () => {
    const r = await new Client(t, { origin: null }).post(`/feed/ticks?token=${FEED_TOKEN}`, body);
    assert.equal(r.status, 401);
    assert.equal(t.app.market.book.get('EURUSD'), undefined);
  });

  test('a signed-in administrator without the token is refused too', async () => {
    const admin = await signedInAdmin(t);
    const r = await admin.post('/feed/ticks', body);
    assert.equal(r.status, 401);
    assert.equal(t.app.market.book.get('EURUSD'), undefined);
  });

  test('authentication comes before validation: a bad body without the token is a 401, not a 400', async () => {
    const r = await new Client(t, { origin: null }).post('/feed/ticks', { ticks: [{ symbol: 'NOPE', bid: -1 }] });
    assert.equal(r.status, 401);
  });

  test('the right Bearer token is accepted and the tick is in the book when the call returns', async () => {
    const r = await feedClient(t).post('/feed/ticks', body);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'success', message: 'Accepted 1 of 1 ticks.', accepted: 1, refused: [] });
    assert.deepEqual(t.app.market.book.get('EURUSD'), { symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: WEDNESDAY_10, markup: 0 });
    assert.equal(t.app.market.candles.live('EURUSD', 'M1')?.close, 1.1);
  });

  test('a browser Origin does not matter to the feed (it is exempt from the same-origin check)', async () => {
    const r = await new Client(t, { origin: 'https://elsewhere.example', headers: { authorization: `Bearer ${FEED_TOKEN}` } }).post('/feed/ticks', body);
    assert.equal(r.status, 200);
  });
});

describe('push feed: FEED_TOKEN not set', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ market: { feedToken: null } });
  });
  after(() => t.close());

  for (const header of [`Bearer ${FEED_TOKEN}`, 'Bearer ', 'Bearer null', '']) {
    test(`every call is refused (Authorization: "${header}")`, async () => {
      const r = await new Client(t, { origin: null, headers: header ? { authorization: header } : {} }).post('/feed/ticks', { ticks: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }] });
      assert.equal(r.status, 401);
      assert.match(r.body.message, /FEED_TOKEN is not set/);
      assert.deepEqual(t.app.market.book.all(), []);
    });
  }
});

describe('push feed: validation', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  const good1 = { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 };
  const good2 = { symbol: 'USDJPY', bid: 150.1, ask: 150.112 };

  const NAMES_THIRD_TICK = /\btick 3\b|\bticks\.2\b|\bticks\[2\]/i;

  /**
   * Sends [good1, good2, bad] as one batch and checks a 400 with the reason, and that nothing was
   * applied. Returns the message.
   */
  async function refusedAsThird(bad: unknown, reason: RegExp): Promise<string> {
    const before = t.app.market.book.all();
    const candlesBefore = t.app.market.candles.live('GBPUSD', 'M1');
    const r = await feedClient(t).post('/feed/ticks', { ticks: [good1, good2, bad] });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.status, 'Failure');
    assert.match(r.body.message, reason);
    // All or nothing: the two good ticks before it were not applied either.
    assert.deepEqual(t.app.market.book.all(), before);
    assert.deepEqual(t.app.market.candles.live('GBPUSD', 'M1'), candlesBefore);
    return r.body.message as string;
  }

  // Refused by the quote book's checks.
  const bookCases: [string, unknown, RegExp][] = [
    ['an unknown symbol', { symbol: 'XXXYYY', bid: 1, ask: 1.1 }, /Unknown symbol XXXYYY/],
    ['a symbol of the wrong case is unknown', { symbol: 'eurusd', bid: 1.1, ask: 1.1002 }, /Unknown symbol eurusd/],
    ['ask below bid', { symbol: 'EURUSD', bid: 1.1002, ask: 1.1 }, /ask must not be below bid/],
    ['a zero bid', { symbol: 'EURUSD', bid: 0, ask: 1.1 }, /positive/],
    ['a zero ask and bid', { symbol: 'EURUSD', bid: 0, ask: 0 }, /positive/],
    ['a negative bid', { symbol: 'EURUSD', bid: -1.1, ask: 1.1 }, /positive/],
    ['negative bid and ask', { symbol: 'EURUSD', bid: -1.1002, ask: -1.1 }, /positive/],
    ['a time more than a minute in the future', { symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: WEDNESDAY_10 + 60_001 }, /future/],
  ];
  for (const [what, bad, reason] of bookCases) {
    test(`${what} → refused alone: 400 naming the tick, nothing applied`, async () => {
      const before = t.app.market.book.all();
      const r = await feedClient(t).post('/feed/ticks', { ticks: [bad] });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.status, 'Failure');
      assert.match(r.body.message, /^Tick 1: /);
      assert.match(r.body.message, reason);
      assert.deepEqual(t.app.market.book.all(), before);
    });
  }

  /** A problem only the quote book sees costs its tick alone: the good ones in the batch are applied (feed-gaps.test.ts). */
  test('a tick the quote book refuses within a batch is named in `refused`; the batch is not all-or-nothing', async () => {
    const other = await startApp();
    try {
      for (const [what, bad, reason] of bookCases) {
        const r = await feedClient(other).post('/feed/ticks', { ticks: [good1, good2, bad] });
        assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.accepted, 2, what);
        assert.equal(r.body.refused.length, 1, what);
        assert.equal(r.body.refused[0].index, 3, what);
        assert.match(r.body.refused[0].message, reason, what);
      }
      assert.equal(other.app.market.book.get('GBPUSD')?.bid, 1.27);
    } finally {
      await other.close();
    }
  });

  // Refused by the request schema.
  const schemaCases: [string, unknown, RegExp][] = [
    ['bid "NaN" as a string', { symbol: 'EURUSD', bid: 'NaN', ask: 1.1 }, /bid must be a number/],
    ['ask "Infinity" as a string', { symbol: 'EURUSD', bid: 1.1, ask: 'Infinity' }, /ask must be a number/],
    ['bid null', { symbol: 'EURUSD', bid: null, ask: 1.1 }, /bid must be a number/],
    ['a numeric string', { symbol: 'EURUSD', bid: '1.1', ask: 1.1002 }, /bid must be a number/],
    ['no symbol', { bid: 1.1, ask: 1.1002 }, /symbol is required/],
    ['an empty symbol', { symbol: '', bid: 1.1, ask: 1.1002 }, /symbol is required/],
    ['no bid', { symbol: 'EURUSD', ask: 1.1002 }, /bid must be a number/],
    ['no ask', { symbol: 'EURUSD', bid: 1.1 }, /ask must be a number/],
    ['a time that is not a whole number', { symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: 1.5 }, /time/],
    ['a time as a date string', { symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: '2026-03-04T10:00:00Z' }, /time/],
    ['a negative time', { symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: -1 }, /time/],
    ['a tick that is not an object', 'EURUSD 1.1 1.1002', /./],
  ];
  for (const [what, bad, reason] of schemaCases) {
    test(`${what} → 400, nothing applied`, async () => {
      await refusedAsThird(bad, reason);
    });
  }

  test('a malformed tick in a batch is named in the refusal (which tick), as the quote-book checks do', async () => {
    const unnamed: string[] = [];
    for (const [what, bad, reason] of schemaCases) {
      const message = await refusedAsThird(bad, reason);
      if (!NAMES_THIRD_TICK.test(message)) unnamed.push(`${what}: "${message}"`);
    }
    assert.deepEqual(unnamed, [], `refusals that do not say which of the 3 ticks is wrong:\n  ${unnamed.join('\n  ')}`);
  });

  test('Infinity written as a JSON number (1e999) → 400, nothing applied', async () => {
    const raw = `{"ticks":[${JSON.stringify(good1)},{"symbol":"EURUSD","bid":1e999,"ask":1e999}]}`;
    const r = await feedClient(t).post('/feed/ticks', raw);
    assert.equal(r.status, 400);
    assert.match(r.body.message, /bid must be a number/);
    assert.equal(t.app.market.book.get('GBPUSD'), undefined);
    assert.equal(t.app.market.book.get('EURUSD'), undefined);
  });

  test('NaN written into the JSON text → 400, nothing applied', async () => {
    const r = await feedClient(t).post('/feed/ticks', '{"ticks":[{"symbol":"EURUSD","bid":NaN,"ask":1.1}]}');
    assert.equal(r.status, 400);
    assert.equal(r.body.status, 'Failure');
    assert.equal(t.app.market.book.get('EURUSD'), undefined);
  });

  test('the batch itself: missing, not a list, empty, more than 1000 ticks → 400', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /ticks must be a list/],
      [{ ticks: 'EURUSD' }, /ticks must be a list/],
      [{ ticks: [] }, /ticks must not be empty/],
      [{ ticks: Array.from({ length: 1001 }, () => ({ symbol: 'EURUSD', bid: 1.1, ask: 1.2 })) }, /At most 1000 ticks/],
      [[good1], /JSON object|ticks must be a list/],
    ];
    for (const [body, message] of cases) {
      const r = await feedClient(t).post('/feed/ticks', body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 60));
      assert.match(r.body.message, message);
    }
    assert.deepEqual(t.app.market.book.all(), []);
  });

  test('exactly 1000 ticks are accepted; the last one is the quote', async () => {
    const ticks = Array.from({ length: 1000 }, (_, i) => ({ symbol: 'EURCHF', bid: 0.95 + i / 100_000, ask: 0.9502 + i / 100_000 }));
    const r = await feedClient(t).post('/feed/ticks', { ticks });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'success', message: 'Accepted 1000 of 1000 ticks.', accepted: 1000, refused: [] });
    assert.deepEqual(t.app.market.book.get('EURCHF'), { symbol: 'EURCHF', bid: 0.95999, ask: 0.96019, time: WEDNESDAY_10, markup: 0 });
    assert.equal(t.app.market.candles.live('EURCHF', 'M1')?.volume, 1000);
  });

  test('a time a few seconds ahead (clock skew) is read as now, so it cannot freeze the symbol; bid equal to ask is accepted; prices are rounded to digits', async () => {
    await push(t, [{ symbol: 'AUDUSD', bid: 0.662004, ask: 0.662004, time: WEDNESDAY_10 + 5_000 }]);
    assert.deepEqual(t.app.market.book.get('AUDUSD'), { symbol: 'AUDUSD', bid: 0.662, ask: 0.662, time: WEDNESDAY_10, markup: 0 });
    await push(t, [{ symbol: 'AUDUSD', bid: 0.6621, ask: 0.6622 }]);
    assert.equal(t.app.market.book.get('AUDUSD')?.bid, 0.6621);
    const far = await feedClient(t).post('/feed/ticks', { ticks: [{ symbol: 'AUDUSD', bid: 0.662, ask: 0.6621, time: WEDNESDAY_10 + 60_000 }] });
    assert.equal(far.status, 400);
    assert.match(far.body.message, /future/);
  });

  test('an overflowing price or a jump of more than half the price is refused as a feed error', async () => {
    await push(t, [{ symbol: 'ETHUSD', bid: 3200, ask: 3201 }]);
    for (const tick of [{ symbol: 'ETHUSD', bid: 1e308, ask: 1e308 }, { symbol: 'ETHUSD', bid: 32000, ask: 32001 }]) {
      const r = await feedClient(t).post('/feed/ticks', { ticks: [tick] });
      assert.equal(r.status, 400);
      assert.match(r.body.message, /Tick 1: ETHUSD: (the price is out of range|the price moved)/);
    }
    assert.equal(t.app.market.book.get('ETHUSD')?.bid, 3200);
  });

  test('a tick older than the current quote → 400 naming the tick, and the quote is kept', async () => {
    await push(t, [{ symbol: 'NZDUSD', bid: 0.611, ask: 0.6112, time: WEDNESDAY_10 - 1000 }]);
    const quote = t.app.market.book.get('NZDUSD');
    const r = await feedClient(t).post('/feed/ticks', { ticks: [{ symbol: 'NZDUSD', bid: 0.7, ask: 0.7002, time: WEDNESDAY_10 - 2000 }] });
    assert.deepEqual(t.app.market.book.get('NZDUSD'), quote, 'the older tick must not replace the quote');
    assert.equal(r.status, 400, `an older tick was answered ${r.status} ${JSON.stringify(r.body)}`);
    assert.match(r.body.message, /Tick 1/);
    assert.match(r.body.message, /older/);
  });

  test('a batch holding one tick older than the current quote applies the others and names the refused one', async () => {
    await push(t, [{ symbol: 'USDCAD', bid: 1.362, ask: 1.3622, time: WEDNESDAY_10 - 1000 }]);
    const usdcad = t.app.market.book.get('USDCAD');
    const r = await feedClient(t).post('/feed/ticks', {
      ticks: [
        { symbol: 'EURGBP', bid: 0.854, ask: 0.8542 },
        { symbol: 'USDCAD', bid: 1.5, ask: 1.5002, time: WEDNESDAY_10 - 5000 },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.accepted, 1);
    assert.deepEqual(r.body.refused, [{ index: 2, symbol: 'USDCAD', message: 'USDCAD: tick is older than the current quote.' }]);
    assert.equal(t.app.market.book.get('EURGBP')?.bid, 0.854);
    assert.deepEqual(t.app.market.book.get('USDCAD'), usdcad, 'the older tick must not replace the quote');
  });

  test('a tick with the same time as the current quote replaces it', async () => {
    await push(t, [{ symbol: 'CHFJPY', bid: 169.7, ask: 169.725, time: WEDNESDAY_10 - 1000 }]);
    await push(t, [{ symbol: 'CHFJPY', bid: 169.8, ask: 169.825, time: WEDNESDAY_10 - 1000 }]);
    assert.equal(t.app.market.book.get('CHFJPY')?.bid, 169.8);
  });
});

describe('push feed: broker spread markup', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tradeport-markup-'));
    const file = defaultCatalogue();
    const markup: Record<string, number> = { EURUSD: 3, USDJPY: 4, BTCUSD: 0, XAUUSD: 10 };
    file.instruments = file.instruments.filter((i) => i.symbol in markup).map((i) => ({ ...i, spreadMarkup: markup[i.symbol]! }));
    const catalogueFile = join(dir, 'instruments.json');
    writeFileSync(catalogueFile, JSON.stringify(file));
    t = await startApp({ market: { catalogueFile } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('half the markup goes below the bid and the rest above the ask, at the instrument digits', async () => {
    await push(t, [
      { symbol: 'EURUSD', bid: 1.1, ask: 1.1001 },
      { symbol: 'USDJPY', bid: 150, ask: 150.01 },
      { symbol: 'BTCUSD', bid: 65000, ask: 65015 },
      { symbol: 'XAUUSD', bid: 2350, ask: 2350 },
    ]);
    const { client } = await signedInTrader(t);
    const r = await client.get('/platform/getQuotes.php');
    assert.equal(r.status, 200);
    const bySymbol = new Map<string, { bid: number; ask: number }>(r.body.data.map((q: { symbol: string; bid: number; ask: number }) => [q.symbol, q]));
    // 3 points on 5 digits: 1 below, 2 above.
    assert.deepEqual({ bid: bySymbol.get('EURUSD')?.bid, ask: bySymbol.get('EURUSD')?.ask }, { bid: 1.09999, ask: 1.10012 });
    // 4 points on 3 digits: 2 below, 2 above.
    assert.deepEqual({ bid: bySymbol.get('USDJPY')?.bid, ask: bySymbol.get('USDJPY')?.ask }, { bid: 149.998, ask: 150.012 });
    assert.deepEqual({ bid: bySymbol.get('BTCUSD')?.bid, ask: bySymbol.get('BTCUSD')?.ask }, { bid: 65000, ask: 65015 });
    // 10 points on 2 digits around a zero-spread tick.
    assert.deepEqual({ bid: bySymbol.get('XAUUSD')?.bid, ask: bySymbol.get('XAUUSD')?.ask }, { bid: 2349.95, ask: 2350.05 });
  });

  test('candles are built from the marked-down bid the traders see', async () => {
    const { client } = await signedInTrader(t);
    const r = await client.get('/platform/getCandles.php?symbol=EURUSD&period=M1');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, [{ time: WEDNESDAY_10, open: 1.09999, high: 1.09999, low: 1.09999, close: 1.09999, volume: 1 }]);
  });
});

describe('getQuotes and getMainCurrencies', () => {
  let t: TestApp;
  let client: Client;
  before(async () => {
    t = await startApp();
    client = (await signedInTrader(t)).client;
  });
  after(() => t.close());

  test('getMainCurrencies lists the catalogue with ID, Symbol and CurrencyType under standard names', async () => {
    const r = await client.get('/platform/getMainCurrencies.php');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    const rows = r.body.data as { ID: number; Symbol: string; CurrencyType: string }[];
    const group = (g: string) => rows.filter((row) => row.CurrencyType === g).map((row) => row.Symbol);
    assert.ok(group('Forex').length >= 12, `Forex: ${group('Forex').join(',')}`);
    assert.equal(group('Crypto').length, 6);
    assert.equal(group('Stocks').length, 12);
    assert.deepEqual(group('Metals').sort(), ['XAGUSD', 'XAUUSD', 'XPTUSD']);
    for (const symbol of ['EURUSD', 'GBPUSD', 'USDJPY', 'USDCHF', 'AUDUSD', 'USDCAD', 'NZDUSD']) assert.ok(group('Forex').includes(symbol), symbol);
    for (const symbol of ['BTCUSD', 'ETHUSD']) assert.ok(group('Crypto').includes(symbol), symbol);
    for (const symbol of ['AAPL', 'MSFT']) assert.ok(group('Stocks').includes(symbol), symbol);
    // The spec's client built 'USD' + code; we use the standard names.
    assert.ok(!rows.some((row) => row.Symbol === 'USDEUR' || row.Symbol === 'USDBTC'));
    for (const row of rows) {
      assert.equal(typeof row.ID, 'number');
      assert.ok(Number.isInteger(row.ID) && row.ID > 0);
      assert.match(row.Symbol, /^[A-Z0-9.]{1,20}$/);
      assert.ok(['Forex', 'Crypto', 'Stocks', 'Metals'].includes(row.CurrencyType));
    }
    assert.equal(new Set(rows.map((row) => row.ID)).size, rows.length, 'IDs are unique');
    assert.equal(new Set(rows.map((row) => row.Symbol)).size, rows.length, 'symbols are unique');
    const eurusd = r.body.data.find((row: { Symbol: string }) => row.Symbol === 'EURUSD');
    assert.equal(eurusd.digits, 5);
    assert.equal(eurusd.contractSize, 100_000);
    assert.deepEqual(eurusd.sessions, ['America/New_York Sun 17:00-Fri 17:00']);
    // Swaps in points per lot per day, as the catalogue writes them (the price table's instrument details).
    assert.deepEqual([eurusd.swapLong, eurusd.swapShort], [-7.2, 2.1]);
    assert.equal(r.body.data.find((row: { Symbol: string }) => row.Symbol === 'XAUUSD').contractSize, 100);
  });

  test('getMainCurrencies and getQuotes need a session', async () => {
    for (const path of ['/platform/getMainCurrencies.php', '/platform/getQuotes.php', '/platform/getQuotes.php?symbols=EURUSD']) {
      const r = await new Client(t).get(path);
      assert.equal(r.status, 401, path);
      assert.equal(r.body.status, 'Failure');
    }
    // The feed token is not a session.
    assert.equal((await feedClient(t).get('/platform/getQuotes.php')).status, 401);
  });

  test('getQuotes returns every symbol by default, in catalogue order, with null prices before the first tick', async () => {
    const symbols = (await client.get('/platform/getMainCurrencies.php')).body.data.map((row: { Symbol: string }) => row.Symbol);
    const r = await client.get('/platform/getQuotes.php');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    assert.deepEqual(r.body.data.map((q: { symbol: string }) => q.symbol), symbols);
    for (const q of r.body.data) {
      assert.deepEqual(Object.keys(q).sort(), QUOTE_KEYS);
      // Tests run with every market open; a market with no tick yet is open and stale.
      assert.deepEqual({ bid: q.bid, ask: q.ask, time: q.time, open: q.open, stale: q.stale }, { bid: null, ask: null, time: null, open: true, stale: true }, q.symbol);
    }
  });

  test('symbols=EURUSD,BTCUSD returns those two, in that order, with their latest ticks', async () => {
    await push(t, [
      { symbol: 'EURUSD', bid: 1.08501, ask: 1.08511 },
      { symbol: 'BTCUSD', bid: 65000.5, ask: 65015.25, time: WEDNESDAY_10 - 500 },
      { symbol: 'EURUSD', bid: 1.08502, ask: 1.08512 },
    ]);
    const r = await client.get('/platform/getQuotes.php?symbols=EURUSD,BTCUSD');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      status: 'success',
      data: [
        { symbol: 'EURUSD', bid: 1.08502, ask: 1.08512, time: WEDNESDAY_10, stale: false, open: true },
        { symbol: 'BTCUSD', bid: 65000.5, ask: 65015.25, time: WEDNESDAY_10 - 500, stale: false, open: true },
      ],
    });
    const spaced = await client.get('/platform/getQuotes.php?symbols=%20btcusd%20,eurusd');
    assert.deepEqual(spaced.body.data.map((q: { symbol: string }) => q.symbol), ['BTCUSD', 'EURUSD']);
  });

  test('an unknown symbol → 400 naming it', async () => {
    for (const query of ['FOO', 'EURUSD,FOO', 'USDEUR']) {
      const r = await client.get(`/platform/getQuotes.php?symbols=${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.status, 'Failure');
      assert.match(r.body.message, new RegExp(`Unknown symbol: ${query.split(',').pop()}`));
    }
    const two = await client.get('/platform/getQuotes.php?symbols=FOO,BAR');
    assert.match(two.body.message, /Unknown symbols: FOO, BAR/);
  });
});

describe('quote freshness and sessions', () => {
  test('a quote turns stale after staleAfterMs without a tick, and fresh again with the next one', async () => {
    const t = await startApp({ market: { staleAfterMs: 5000 } });
    try {
      const { client } = await signedInTrader(t);
      const view = async () => (await client.get('/platform/getQuotes.php?symbols=EURUSD,GBPUSD')).body.data as { stale: boolean; open: boolean }[];
      await push(t, [{ symbol: 'EURUSD', bid: 1.085, ask: 1.0851 }]);
      assert.deepEqual((await view()).map((q) => q.stale), [false, true]);
      t.clock.advance(5000);
      assert.equal((await view())[0]!.stale, false, 'exactly staleAfterMs old is still fresh');
      t.clock.advance(1);
      assert.deepEqual((await view()).map((q) => q.stale), [true, true]);
      assert.equal((await view())[0]!.open, true);
      // The price is still shown while stale.
      assert.equal((await client.get('/platform/getQuotes.php?symbols=EURUSD')).body.data[0].bid, 1.085);
      await push(t, [{ symbol: 'EURUSD', bid: 1.0852, ask: 1.0853 }]);
      assert.equal((await view())[0]!.stale, false);
    } finally {
      await t.close();
    }
  });

  test("with real sessions, markets are closed (and not stale) outside their hours; crypto trades on Saturday", async () => {
    const t = await startApp({ market: { sessions: 'real', staleAfterMs: 10_000 } });
    try {
      const who = await signedInTrader(t);
      const view = async () =>
        Object.fromEntries(
          ((await (await signIn(t, who)).get('/platform/getQuotes.php?symbols=EURUSD,XAUUSD,AAPL,BTCUSD')).body.data as { symbol: string; open: boolean; stale: boolean }[]).map((q) => [q.symbol, `${q.open ? 'open' : 'closed'}${q.stale ? ' stale' : ''}`]),
        );
      // Wednesday 10:00: Forex and metals open, US stocks not yet.
      assert.deepEqual(await view(), { EURUSD: 'open stale', XAUUSD: 'open stale', AAPL: 'closed', BTCUSD: 'open stale' });
      await push(t, [
        { symbol: 'EURUSD', bid: 1.085, ask: 1.0851 },
        { symbol: 'BTCUSD', bid: 65000, ask: 65015 },
      ]);
      assert.deepEqual(await view(), { EURUSD: 'open', XAUUSD: 'open stale', AAPL: 'closed', BTCUSD: 'open' });
      // US stocks open at 09:30 New York: 14:30 UTC in winter, not 13:30.
      t.clock.set(at('2026-03-04T13:30'));
      assert.equal((await view()).AAPL, 'closed');
      t.clock.set(at('2026-03-04T14:30'));
      assert.equal((await view()).AAPL, 'open stale');
      // Saturday noon: only crypto is open. Forex keeps its last price but is not stale.
      t.clock.set(at('2026-03-07T12:00'));
      assert.deepEqual(await view(), { EURUSD: 'closed', XAUUSD: 'closed', AAPL: 'closed', BTCUSD: 'open stale' });
      const eurusd = (await (await signIn(t, who)).get('/platform/getQuotes.php?symbols=EURUSD')).body.data[0];
      assert.equal(eurusd.bid, 1.085);
      // Sunday 17:00 New York opens the week (stale until its first tick): 21:00 UTC, since daylight
      // time started that morning.
      t.clock.set(at('2026-03-08T20:59'));
      assert.equal((await view()).EURUSD, 'closed');
      t.clock.set(at('2026-03-08T21:00'));
      assert.equal((await view()).EURUSD, 'open stale');
      // Friday 17:00 New York (21:00 UTC in daylight time) closes it.
      t.clock.set(at('2026-03-13T20:59'));
      assert.equal((await view()).EURUSD, 'open stale');
      t.clock.set(at('2026-03-13T21:00'));
      assert.deepEqual(await view(), { EURUSD: 'closed', XAUUSD: 'closed', AAPL: 'closed', BTCUSD: 'open stale' });
    } finally {
      await t.close();
    }
  });
});

describe('getCandles', () => {
  let t: TestApp;
  let client: Client;
  let who: { email: string; password: string };
  const setClock = async (iso: string) => {
    t.clock.set(at(iso));
    client = await signIn(t, who);
  };
  const c = (iso: string, open: number, high: number, low: number, close: number, volume: number) => ({ time: at(iso), open, high, low, close, volume });
  const candles = async (query: string) => {
    const r = await client.get(`/platform/getCandles.php?${query}`);
    assert.equal(r.status, 200, `${query}: ${JSON.stringify(r.body)}`);
    return r.body.data as ReturnType<typeof c>[];
  };

  before(async () => {
    // Flushes happen only when a test asks for one.
    t = await startApp({ market: { flushIntervalMs: 3_600_000 } });
    who = await signedInTrader(t);
    await setClock('2026-03-04T12:00');
    await push(t, [
      { symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: at('2026-03-04T10:00:05') },
      { symbol: 'EURUSD', bid: 1.101, ask: 1.1011, time: at('2026-03-04T10:00:30') },
      { symbol: 'EURUSD', bid: 1.099, ask: 1.0991, time: at('2026-03-04T10:00:50') },
      { symbol: 'EURUSD', bid: 1.1005, ask: 1.1006, time: at('2026-03-04T10:01:10') },
    ]);
    // Sent separately: candles continue across calls.
    await push(t, [
      { symbol: 'EURUSD', bid: 1.102, ask: 1.1021, time: at('2026-03-04T10:59:00') },
      { symbol: 'EURUSD', bid: 1.103, ask: 1.1031, time: at('2026-03-04T11:00:00') },
    ]);
    await push(t, [{ symbol: 'EURUSD', bid: 1.1015, ask: 1.1016, time: at('2026-03-04T11:30:00') }]);
  });
  after(() => t.close());

  test('candles persist: before the flush the table is empty, after it the rows equal what the API shows', async () => {
    const count = async () => Number((await t.ctx.db.selectFrom('candles').select((eb) => eb.fn.countAll().as('n')).where('symbol', '=', 'EURUSD').executeTakeFirstOrThrow()).n);
    assert.equal(await count(), 0);
    await t.app.market.flush();
    const rows = await t.ctx.db.selectFrom('candles').selectAll().where('symbol', '=', 'EURUSD').orderBy('period').orderBy('time').execute();
    const byPeriod = (p: string) => rows.filter((r) => r.period === p).map(({ time, open, high, low, close, volume }) => ({ time: Number(time), open, high, low, close, volume }));
    assert.deepEqual(byPeriod('M1'), [
      c('2026-03-04T10:00', 1.1, 1.101, 1.099, 1.099, 3),
      c('2026-03-04T10:01', 1.1005, 1.1005, 1.1005, 1.1005, 1),
      c('2026-03-04T10:59', 1.102, 1.102, 1.102, 1.102, 1),
      c('2026-03-04T11:00', 1.103, 1.103, 1.103, 1.103, 1),
      c('2026-03-04T11:30', 1.1015, 1.1015, 1.1015, 1.1015, 1),
    ]);
    assert.deepEqual(byPeriod('M1'), await candles('symbol=EURUSD&period=M1'));
    assert.deepEqual(byPeriod('H1'), [c('2026-03-04T10:00', 1.1, 1.102, 1.099, 1.102, 5), c('2026-03-04T11:00', 1.103, 1.103, 1.1015, 1.1015, 2)]);
    for (const period of ['M5', 'M15', 'M30', 'H4', 'D1', 'W1', 'MN']) assert.ok(byPeriod(period).length > 0, period);
    // M1 5, M5 4, M15 4, M30 4, H1 2, and one each of H4, D1, W1, MN.
    assert.equal(rows.length, 5 + 4 + 4 + 4 + 2 + 1 + 1 + 1 + 1);
    const last = await t.ctx.db.selectFrom('last_quotes').selectAll().where('symbol', '=', 'EURUSD').executeTakeFirstOrThrow();
    assert.deepEqual({ bid: last.bid, ask: last.ask, time: Number(last.time) }, { bid: 1.1015, ask: 1.1016, time: at('2026-03-04T11:30') });
  });

  test('candles closed since the last flush are shown at once, with their final values (getCandles does not wait for the flush)', async () => {
    const problems: string[] = [];
    // Two minutes, no flush in between: the first minute is closed but not yet written.
    await push(t, [
      { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702, time: at('2026-03-04T11:00:10') },
      { symbol: 'GBPUSD', bid: 1.271, ask: 1.2712, time: at('2026-03-04T11:01:10') },
    ]);
    const unflushed = await candles('symbol=GBPUSD&period=M1');
    if (unflushed.length !== 2) problems.push(`right after the push, M1 lists ${unflushed.length} of 2 candles: ${JSON.stringify(unflushed)}`);
    // After a flush the 11:01 minute grows and closes: the API must show its final volume, not the flushed one.
    await t.app.market.flush();
    await push(t, [
      { symbol: 'GBPUSD', bid: 1.272, ask: 1.2722, time: at('2026-03-04T11:01:40') },
      { symbol: 'GBPUSD', bid: 1.273, ask: 1.2732, time: at('2026-03-04T11:02:10') },
    ]);
    const stale = (await candles('symbol=GBPUSD&period=M1')).find((x) => x.time === at('2026-03-04T11:01'));
    if (stale?.volume !== 2 || stale.high !== 1.272) problems.push(`the closed 11:01 candle shows ${JSON.stringify(stale)}, expected volume 2 and high 1.272`);
    await t.app.market.flush();
    assert.deepEqual((await candles('symbol=GBPUSD&period=M1')).map((x) => x.volume), [1, 2, 1], 'after the flush everything is there');
    assert.deepEqual(problems, []);
  });

  test('M1 candles: bid OHLC and tick volume per minute, no candles for the gaps', async () => {
    assert.deepEqual(await candles('symbol=EURUSD&period=M1'), [
      c('2026-03-04T10:00', 1.1, 1.101, 1.099, 1.099, 3),
      c('2026-03-04T10:01', 1.1005, 1.1005, 1.1005, 1.1005, 1),
      c('2026-03-04T10:59', 1.102, 1.102, 1.102, 1.102, 1),
      c('2026-03-04T11:00', 1.103, 1.103, 1.103, 1.103, 1),
      c('2026-03-04T11:30', 1.1015, 1.1015, 1.1015, 1.1015, 1),
    ]);
  });

  test('M5, H1, H4, D1, W1 and MN candles from the same ticks', async () => {
    assert.deepEqual(await candles('symbol=EURUSD&period=M5'), [
      c('2026-03-04T10:00', 1.1, 1.101, 1.099, 1.1005, 4),
      c('2026-03-04T10:55', 1.102, 1.102, 1.102, 1.102, 1),
      c('2026-03-04T11:00', 1.103, 1.103, 1.103, 1.103, 1),
      c('2026-03-04T11:30', 1.1015, 1.1015, 1.1015, 1.1015, 1),
    ]);
    assert.deepEqual(await candles('symbol=EURUSD&period=H1'), [c('2026-03-04T10:00', 1.1, 1.102, 1.099, 1.102, 5), c('2026-03-04T11:00', 1.103, 1.103, 1.1015, 1.1015, 2)]);
    assert.deepEqual(await candles('symbol=EURUSD&period=H4'), [c('2026-03-04T08:00', 1.1, 1.103, 1.099, 1.1015, 7)]);
    assert.deepEqual(await candles('symbol=EURUSD&period=D1'), [c('2026-03-04T00:00', 1.1, 1.103, 1.099, 1.1015, 7)]);
    assert.deepEqual(await candles('symbol=EURUSD&period=W1'), [c('2026-03-01T00:00', 1.1, 1.103, 1.099, 1.1015, 7)]);
    assert.deepEqual(await candles('symbol=EURUSD&period=MN'), [c('2026-03-01T00:00', 1.1, 1.103, 1.099, 1.1015, 7)]);
  });

  test('lower-case symbols are accepted; a symbol with no ticks has no candles', async () => {
    assert.equal((await candles('symbol=eurusd&period=H1')).length, 2);
    assert.deepEqual(await candles('symbol=AUDUSD&period=M1'), []);
  });

  test('limit returns the latest candles; before pages back in time', async () => {
    assert.deepEqual((await candles('symbol=EURUSD&period=M1&limit=1')).map((x) => x.time), [at('2026-03-04T11:30')]);
    const page1 = await candles('symbol=EURUSD&period=M1&limit=2');
    assert.deepEqual(page1.map((x) => x.time), [at('2026-03-04T11:00'), at('2026-03-04T11:30')]);
    const page2 = await candles(`symbol=EURUSD&period=M1&limit=2&before=${page1[0]!.time}`);
    assert.deepEqual(page2.map((x) => x.time), [at('2026-03-04T10:01'), at('2026-03-04T10:59')]);
    const page3 = await candles(`symbol=EURUSD&period=M1&limit=2&before=${page2[0]!.time}`);
    assert.deepEqual(page3, [c('2026-03-04T10:00', 1.1, 1.101, 1.099, 1.099, 3)]);
    assert.deepEqual(await candles(`symbol=EURUSD&period=M1&limit=2&before=${page3[0]!.time}`), []);
    // before is exclusive and compares bucket starts: a bound just after 10:01:00 includes the 10:01 candle.
    assert.deepEqual((await candles(`symbol=EURUSD&period=M1&before=${at('2026-03-04T10:01') + 1}`)).map((x) => x.time), [at('2026-03-04T10:00'), at('2026-03-04T10:01')]);
  });

  test("a chart's first page is the series' newest 500 candles, kept current by ticks after the first ask; a longer one or an earlier page comes from the database", async () => {
    const minute = 60_000;
    const start = at('2026-03-04T00:00');
    const ticks = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ symbol: 'USDCAD', bid: 1.3 + (from + i) / 10_000, ask: 1.3002 + (from + i) / 10_000, time: start + (from + i) * minute + 1_000 }));
    await push(t, ticks(0, 300));
    assert.equal((await candles('symbol=USDCAD&period=M1&limit=500')).length, 300, 'the first ask reads what there is');
    await push(t, ticks(300, 520));
    const page = await candles('symbol=USDCAD&period=M1&limit=500');
    assert.deepEqual([page.length, page[0]!.time, page.at(-1)!.time], [500, start + 20 * minute, start + 519 * minute], 'the newest 500, the forming minute last');
    assert.ok(page.every((x, i) => i === 0 || x.time - page[i - 1]!.time === minute), 'no minute lost or repeated');
    // A tick in the forming minute changes its candle, not the count.
    await push(t, [{ symbol: 'USDCAD', bid: 1.5, ask: 1.5002, time: start + 519 * minute + 30_000 }]);
    assert.deepEqual((await candles('symbol=USDCAD&period=M1&limit=2')).map((x) => [x.time, x.high, x.volume]), [[start + 518 * minute, 1.3518, 1], [start + 519 * minute, 1.5, 2]]);
    assert.equal((await candles('symbol=USDCAD&period=M1&limit=600')).length, 520, 'longer than the window: the database with the unwritten candles');
    assert.deepEqual((await candles(`symbol=USDCAD&period=M1&limit=3&before=${start + 20 * minute}`)).map((x) => x.time), [start + 17 * minute, start + 18 * minute, start + 19 * minute]);
  });

  test('bad queries → 400 with a message; no session → 401', async () => {
    const cases: [string, RegExp][] = [
      ['symbol=FOO&period=M1', /Unknown symbol: FOO/],
      ['symbol=EURUSD&period=M2', /period must be one of M1, M5, M15, M30, H1, H4, D1, W1, MN/],
      ['symbol=EURUSD&period=m1', /period must be one of/],
      ['symbol=EURUSD', /period must be one of/],
      ['period=M1', /symbol is required/],
      ['symbol=&period=M1', /symbol is required/],
      ['symbol=EURUSD&period=M1&limit=0', /limit must be between 1 and 5000/],
      ['symbol=EURUSD&period=M1&limit=5001', /limit must be between 1 and 5000/],
      ['symbol=EURUSD&period=M1&limit=abc', /limit must be a number/],
      ['symbol=EURUSD&period=M1&limit=1.5', /limit must be a whole number/],
      ['symbol=EURUSD&period=M1&before=yesterday', /before must be a time/],
      ['symbol=EURUSD&period=M1&before=-5', /before must be a time/],
    ];
    for (const [query, message] of cases) {
      const r = await client.get(`/platform/getCandles.php?${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.status, 'Failure', query);
      assert.match(r.body.message, message, query);
    }
    assert.equal((await new Client(t).get('/platform/getCandles.php?symbol=EURUSD&period=M1')).status, 401);
  });

  test('a tick in the forming minute after a flush: the API shows that candle once, merged, and the next flush stores it', async () => {
    await push(t, [{ symbol: 'EURUSD', bid: 1.1025, ask: 1.1026, time: at('2026-03-04T11:30:20') }]);
    const m1 = await candles('symbol=EURUSD&period=M1');
    assert.equal(m1.length, 5);
    assert.deepEqual(m1[4], c('2026-03-04T11:30', 1.1015, 1.1025, 1.1015, 1.1025, 2));
    await t.app.market.flush();
    const stored = await t.ctx.db.selectFrom('candles').selectAll().where('symbol', '=', 'EURUSD').where('period', '=', 'M1').where('time', '=', at('2026-03-04T11:30')).executeTakeFirstOrThrow();
    assert.equal(stored.volume, 2);
    assert.equal(stored.high, 1.1025);
  });

  test('a tick on the next day opens a new D1 candle; the weekly and monthly ones continue', async () => {
    await setClock('2026-03-05T00:00:30');
    await push(t, [{ symbol: 'EURUSD', bid: 1.098, ask: 1.0981 }]);
    await t.app.market.flush();
    assert.deepEqual(await candles('symbol=EURUSD&period=D1'), [c('2026-03-04T00:00', 1.1, 1.103, 1.099, 1.1025, 8), c('2026-03-05T00:00', 1.098, 1.098, 1.098, 1.098, 1)]);
    assert.deepEqual(await candles('symbol=EURUSD&period=W1'), [c('2026-03-01T00:00', 1.1, 1.103, 1.098, 1.098, 9)]);
    assert.deepEqual(await candles('symbol=EURUSD&period=MN'), [c('2026-03-01T00:00', 1.1, 1.103, 1.098, 1.098, 9)]);
  });

  test('ticks across a week and a month boundary', async () => {
    await setClock('2026-04-05T12:00');
    await push(t, [
      { symbol: 'USDJPY', bid: 150.1, ask: 150.112, time: at('2026-03-28T23:59:59.999') }, // Saturday: week of Mar 22
      { symbol: 'USDJPY', bid: 150.2, ask: 150.212, time: at('2026-03-29T00:00') }, // Sunday: week of Mar 29
      { symbol: 'USDJPY', bid: 150.3, ask: 150.312, time: at('2026-03-31T23:59:59') },
      { symbol: 'USDJPY', bid: 150.4, ask: 150.412, time: at('2026-04-01T00:00') }, // April, same week
      { symbol: 'USDJPY', bid: 150.5, ask: 150.512, time: at('2026-04-05T00:00') }, // Sunday: week of Apr 5
    ]);
    await t.app.market.flush();
    assert.deepEqual(await candles('symbol=USDJPY&period=W1'), [
      c('2026-03-22T00:00', 150.1, 150.1, 150.1, 150.1, 1),
      c('2026-03-29T00:00', 150.2, 150.4, 150.2, 150.4, 3),
      c('2026-04-05T00:00', 150.5, 150.5, 150.5, 150.5, 1),
    ]);
    assert.deepEqual(await candles('symbol=USDJPY&period=MN'), [c('2026-03-01T00:00', 150.1, 150.3, 150.1, 150.3, 3), c('2026-04-01T00:00', 150.4, 150.5, 150.4, 150.5, 2)]);
    assert.equal((await candles('symbol=USDJPY&period=D1')).length, 5);
  });
});
