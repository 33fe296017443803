import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CATALOGUE_FILE, readCatalogueFile } from '../src/market/catalogue';
import { FEED_TOKEN, startApp, type TestApp } from './helpers/app';

/** Failures around the quote book must not stop prices or lose stored data. */
describe('market data robustness', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ market: { flushIntervalMs: 60_000 } });
  });
  after(() => t.close());

  const push = (ticks: { symbol: string; bid: number; ask: number }[]) =>
    fetch(`${t.url}/feed/ticks`, { method: 'POST', headers: { authorization: `Bearer ${FEED_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ ticks }) });

  test('a quote listener that throws does not stop the batch, the book, or the other listeners', async () => {
    const seen: string[] = [];
    const stopBad = t.app.market.book.onQuote(() => {
      throw new Error('listener bug');
    });
    const stopGood = t.app.market.book.onQuote((q) => void seen.push(q.symbol));
    try {
      const r = await push([
        { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
        { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 },
        { symbol: 'USDJPY', bid: 150.1, ask: 150.12 },
      ]);
      assert.equal(r.status, 200);
      assert.deepEqual(await r.json(), { status: 'success', message: 'Accepted 3 of 3 ticks.', accepted: 3, refused: [] });
      assert.deepEqual(seen, ['EURUSD', 'GBPUSD', 'USDJPY']);
      assert.equal(t.app.market.book.get('USDJPY')?.bid, 150.1);
    } finally {
      stopBad();
      stopGood();
    }
  });

  test('a failed write of candles is retried by the next flush; later flushes still run', async () => {
    await push([{ symbol: 'AUDUSD', bid: 0.66, ask: 0.6602 }]);
    const candles = t.app.market.candles;
    const write = candles.write.bind(candles);
    let failNext = true;
    candles.write = async (rows) => {
      if (failNext) {
        failNext = false;
        throw new Error('database unavailable');
      }
      return write(rows);
    };
    try {
      await assert.rejects(t.app.market.flush(), /database unavailable/);
      await t.app.market.flush();
      const stored = await t.ctx.db.selectFrom('candles').select('period').where('symbol', '=', 'AUDUSD').execute();
      assert.equal(stored.length, 9, 'every period of the failed flush was written by the next one');
      const quote = await t.ctx.db.selectFrom('last_quotes').selectAll().where('symbol', '=', 'AUDUSD').executeTakeFirst();
      assert.equal(quote?.bid, 0.66);
    } finally {
      candles.write = write;
    }
  });
});

test('a catalogue whose currencies cannot be converted to USD is refused at start-up', () => {
  const file = JSON.parse(readFileSync(DEFAULT_CATALOGUE_FILE, 'utf8')) as { instruments: { symbol: string }[] };
  file.instruments = file.instruments.filter((i) => i.symbol !== 'GBPUSD' && i.symbol !== 'USDJPY');
  const path = join(mkdtempSync(join(tmpdir(), 'catalogue-')), 'instruments.json');
  writeFileSync(path, JSON.stringify(file));
  assert.throws(() => readCatalogueFile(path), (err: Error) => /EURGBP: no GBPUSD or USDGBP instrument/.test(err.message) && /USDJPY|EURJPY: no JPYUSD or USDJPY/.test(err.message));
  assert.doesNotThrow(() => readCatalogueFile(DEFAULT_CATALOGUE_FILE));
});
