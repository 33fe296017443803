import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { calls, MAX_FAVOURITES } from '@tradeport/contracts';
import { openDatabase } from '../src/storage/db';
import { migrateToLatest, migratorFor } from '../src/storage/migrate';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInTrader, type SignedInTrader } from './helpers/client';
import { assertFailure, roomyLimits } from './helpers/trading';

const GET = calls.getFavourites.path;
const EDIT = calls.editFavourites.path;

const list = async (who: SignedInTrader): Promise<string[]> => {
  const r = await who.client.get(GET);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success');
  return r.body.data;
};
const edit = (who: SignedInTrader, symbol: string, favourite: boolean) => who.client.post(EDIT, { symbol, favourite });

/** The price table's favourite symbols: kept per trader on the server, only catalogue symbols, at most MAX_FAVOURITES. */
describe('favourite symbols', () => {
  let t: TestApp;
  let a: SignedInTrader;
  let b: SignedInTrader;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    a = await signedInTrader(t);
    b = await signedInTrader(t);
  });
  after(() => t.close());

  test('a trader who never chose any has none', async () => {
    const r = await a.client.get(GET);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'success', data: [] });
  });

  test('symbols are added in order, answered as stored, and adding or removing twice changes nothing', async () => {
    const added = await edit(a, 'EURUSD', true);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body, { status: 'success', data: ['EURUSD'] });
    assert.deepEqual((await edit(a, 'xauusd', true)).body.data, ['EURUSD', 'XAUUSD'], 'a symbol in lower case is the catalogue’s');
    assert.deepEqual((await edit(a, 'AAPL', true)).body.data, ['EURUSD', 'XAUUSD', 'AAPL'], 'the newest last, whatever the alphabet says');
    assert.deepEqual((await edit(a, 'EURUSD', true)).body.data, ['EURUSD', 'XAUUSD', 'AAPL'], 'adding again keeps its place');
    assert.deepEqual((await edit(a, 'XAUUSD', false)).body.data, ['EURUSD', 'AAPL']);
    assert.deepEqual((await edit(a, 'XAUUSD', false)).body.data, ['EURUSD', 'AAPL'], 'removing again is no error');
    assert.deepEqual((await edit(a, 'XAUUSD', true)).body.data, ['EURUSD', 'AAPL', 'XAUUSD'], 'added back, it comes last');
    assert.deepEqual(await list(a), ['EURUSD', 'AAPL', 'XAUUSD']);
    const rows = await t.ctx.db.selectFrom('favourite_symbols').select(['symbol']).where('user_id', '=', a.id).execute();
    assert.equal(rows.length, 3, 'one row per symbol');
  });

  test('favourites survive signing in again and are each trader’s own', async () => {
    await edit(b, 'BTCUSD', true);
    await edit(b, 'EURUSD', true);
    const again = new Client(t);
    assert.equal((await again.post('/login.php', { email: a.email, password: a.password })).body.status, 'Success');
    assert.deepEqual((await again.get(GET)).body.data, ['EURUSD', 'AAPL', 'XAUUSD']);
    assert.deepEqual(await list(b), ['BTCUSD', 'EURUSD']);
    // Removing one's own EURUSD leaves the other trader's.
    assert.deepEqual((await edit(b, 'EURUSD', false)).body.data, ['BTCUSD']);
    assert.deepEqual(await list(a), ['EURUSD', 'AAPL', 'XAUUSD']);
    assert.deepEqual(await list(b), ['BTCUSD']);
  });

  test('a change is read back at once, also one made in the database directly, and only that trader’s', async () => {
    const before = await list(a);
    const other = await list(b);
    assert.deepEqual((await edit(a, 'GBPUSD', true)).body.data, [...before, 'GBPUSD']);
    assert.deepEqual(await list(a), [...before, 'GBPUSD']);
    assert.deepEqual(await list(b), other);
    // A row changed behind the server's back (an operator's fix) shows at once too.
    await t.ctx.db.deleteFrom('favourite_symbols').where('user_id', '=', a.id).where('symbol', '=', 'GBPUSD').execute();
    assert.deepEqual(await list(a), before);
  });

  test('a symbol no longer in the catalogue is not listed, cannot be added, and can still be removed', async () => {
    const before = await list(a);
    await t.ctx.db.insertInto('favourite_symbols').values({ user_id: a.id, symbol: 'OLDCO', position: 999, added_at: t.clock.now() }).execute();
    assert.deepEqual(await list(a), before, 'not shown');
    assertFailure(await edit(b, 'OLDCO', true), 400, 'Unknown symbol: OLDCO.');
    assert.deepEqual((await edit(a, 'OLDCO', false)).body.data, before);
    assert.equal((await t.ctx.db.selectFrom('favourite_symbols').select('symbol').where('symbol', '=', 'OLDCO').execute()).length, 0, 'the stored row is gone');
    assertFailure(await edit(a, 'OLDCO', false), 400, 'Unknown symbol: OLDCO.');
  });

  test('bad input is refused with a message and changes nothing', async () => {
    const before = await list(a);
    assertFailure(await edit(a, 'NOSUCH', true), 400, 'Unknown symbol: NOSUCH.');
    assertFailure(await edit(a, 'NOSUCH', false), 400, 'Unknown symbol: NOSUCH.');
    assertFailure(await a.client.post(EDIT, { favourite: true }), 400, 'symbol is required.');
    assertFailure(await a.client.post(EDIT, { symbol: '  ', favourite: true }), 400, 'symbol is required.');
    assertFailure(await a.client.post(EDIT, { symbol: 'EUR USD', favourite: true }), 400, 'symbol may hold letters, digits, dot, dash and underscore only.');
    assertFailure(await a.client.post(EDIT, { symbol: 'X'.repeat(21), favourite: true }), 400, 'symbol is at most 20 characters.');
    assertFailure(await a.client.post(EDIT, { symbol: 42, favourite: true }), 400, 'symbol is required.');
    assertFailure(await a.client.post(EDIT, { symbol: 'GBPUSD' }), 400, 'favourite must be true or false.');
    assertFailure(await a.client.post(EDIT, { symbol: 'GBPUSD', favourite: 'true' }), 400, 'favourite must be true or false.');
    assertFailure(await a.client.post(EDIT, { symbol: 'GBPUSD', favourite: 1 }), 400, 'favourite must be true or false.');
    assertFailure(await a.client.post(EDIT, { symbol: 'GBPUSD', favourite: true, position: 1 }), 400, 'Unknown field: position. Send symbol and favourite.');
    assertFailure(await a.client.post(EDIT, ['GBPUSD']), 400, 'The request body must be a JSON object.');
    assertFailure(await a.client.post(EDIT, '{"symbol": "GBPUSD", "favourite": tru'), 400);
    assert.deepEqual(await list(a), before);
    assert.equal((await t.ctx.db.selectFrom('favourite_symbols').select('symbol').where('symbol', 'in', ['GBPUSD', 'NOSUCH']).execute()).length, 0);
  });

  test('only signed-in traders may read or change them', async () => {
    const anonymous = new Client(t);
    assertFailure(await anonymous.get(GET), 401);
    assertFailure(await anonymous.post(EDIT, { symbol: 'EURUSD', favourite: true }), 401);
    const admin = await signedInAdmin(t);
    assertFailure(await admin.get(GET), 403);
    assertFailure(await admin.post(EDIT, { symbol: 'EURUSD', favourite: true }), 403);
    // A change sent from another site with the trader's cookie is refused before it is read (CSRF).
    const before = await list(b);
    const crossSite = new Client(t, { origin: 'https://evil.example' });
    for (const pair of b.client.cookieHeader.split('; ')) crossSite.setCookie(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    assertFailure(await crossSite.post(EDIT, { symbol: 'ETHUSD', favourite: true }), 403);
    assert.deepEqual(await list(b), before);
  });
});

/** The limit, with a catalogue larger than MAX_FAVOURITES (the shipped one and copies of EURUSD). */
describe('favourite symbols: the limit', () => {
  let t: TestApp;
  let dir: string;
  let symbols: string[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tp-favourites-'));
    const shipped = JSON.parse(readFileSync(resolve(import.meta.dirname, '../config/instruments.json'), 'utf8')) as { instruments: { symbol: string; description: string }[] };
    const eurusd = shipped.instruments.find((i) => i.symbol === 'EURUSD')!;
    const copies = Array.from({ length: MAX_FAVOURITES }, (_, i) => ({ ...eurusd, symbol: `EURUSD.${String(i + 1).padStart(3, '0')}`, description: `Euro vs US Dollar (copy ${i + 1})` }));
    const file = join(dir, 'instruments.json');
    writeFileSync(file, JSON.stringify({ ...shipped, instruments: [...shipped.instruments, ...copies] }));
    t = await startApp({ config: roomyLimits, market: { catalogueFile: file } });
    symbols = [...shipped.instruments.map((i) => i.symbol), ...copies.map((c) => c.symbol)];
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`the ${MAX_FAVOURITES + 1}th favourite is refused (409) and changes nothing; after removing one, another fits`, async () => {
    const a = await signedInTrader(t);
    for (const symbol of symbols.slice(0, MAX_FAVOURITES)) assert.equal((await edit(a, symbol, true)).status, 200, symbol);
    const full = await list(a);
    assert.equal(full.length, MAX_FAVOURITES);
    assertFailure(await edit(a, symbols[MAX_FAVOURITES]!, true), 409, `You already have ${MAX_FAVOURITES} favourites, the most the list may hold. Remove one before adding another.`);
    assert.deepEqual(await list(a), full);
    assert.equal((await edit(a, symbols[0]!, true)).status, 200, 'adding one already there is no new favourite');
    assert.deepEqual((await edit(a, symbols[0]!, false)).body.data, full.slice(1));
    assert.deepEqual((await edit(a, symbols[MAX_FAVOURITES]!, true)).body.data, [...full.slice(1), symbols[MAX_FAVOURITES]]);
  });

  test('adds sent at once by two tabs never pass the limit together', async () => {
    const a = await signedInTrader(t);
    for (const symbol of symbols.slice(0, MAX_FAVOURITES - 3)) assert.equal((await edit(a, symbol, true)).status, 200, symbol);
    const answers = await Promise.all(symbols.slice(MAX_FAVOURITES - 3, MAX_FAVOURITES + 7).map((symbol) => edit(a, symbol, true)));
    assert.equal(answers.filter((r) => r.status === 200).length, 3, answers.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 80)}`).join('\n'));
    for (const r of answers.filter((r) => r.status !== 200)) assertFailure(r, 409);
    assert.equal((await list(a)).length, MAX_FAVOURITES);
    const stored = await t.ctx.db.selectFrom('favourite_symbols').select('position').where('user_id', '=', a.id).execute();
    assert.equal(new Set(stored.map((r) => r.position)).size, MAX_FAVOURITES, 'each at its own place');
  });
});

describe('migration 0017: the price table', () => {
  test('terminal settings stored before it keep their values, with the new columns off; favourites start empty', async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    try {
      const { error } = await migratorFor(handle).migrateTo('0014-request-cancel');
      assert.equal(error, undefined);
      const db = handle.db;
      const now = Date.parse('2026-03-04T10:00:00Z');
      const user = await db
        .insertInto('users')
        .values({ email: 'before@example.com', password_hash: 'x', first_name: 'Bea', last_name: 'Fore', phone_no: '123', role: 'trader', leverage: 100, created_at: now, updated_at: now } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('terminal_settings').values({ user_id: user.id, one_click_trading: 1, hotkeys: 0, updated_at: now } as never).execute();

      assert.ok((await migrateToLatest(handle)).includes('0017-price-table'));
      const row = await db.selectFrom('terminal_settings').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
      assert.deepEqual(
        { one: Number(row.one_click_trading), hotkeys: Number(row.hotkeys), change: Number(row.change_column), spread: Number(row.spread_column) },
        { one: 1, hotkeys: 0, change: 0, spread: 0 },
      );
      assert.deepEqual(await db.selectFrom('favourite_symbols').selectAll().execute(), []);
      await db.insertInto('favourite_symbols').values({ user_id: user.id, symbol: 'EURUSD', position: 1, added_at: now }).execute();
      await assert.rejects(db.insertInto('favourite_symbols').values({ user_id: user.id, symbol: 'EURUSD', position: 2, added_at: now }).execute(), 'one row per user and symbol');
      await assert.rejects(db.insertInto('favourite_symbols').values({ user_id: 999_999, symbol: 'EURUSD', position: 1, added_at: now }).execute(), 'only for a user that exists');
    } finally {
      await handle.close();
      await target.drop();
    }
  });
});
