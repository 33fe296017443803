import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { traderSortKeys, type TraderRow, type TraderSortKey, type TradersQuery } from '@tradeport/contracts';
import fc from 'fast-check';
import { formatCents } from '../src/domain/money';
import { nameSortKey } from '../src/domain/sort-key';
import { usersPage } from '../src/services/users-list';
import { defaultAccountType } from '../src/services/account-types';
import { openDatabase } from '../src/storage/db';
import { migrateToLatest, migratorFor } from '../src/storage/migrate';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';

/**
 * The back office's users table as the database pages it (services/users-list.ts), against the
 * rules written out here over users made with known names, countries, ledger entries and sessions:
 * who is online at the edges of the rule, the totals from the ledger, and for random queries the
 * matching rows in the asked order from the offset, with every match counted.
 */
describe('the users table, filtered, ordered and paged by the database', () => {
  let t: TestApp;
  const WINDOW = 300_000;
  const made = new Map<number, { online: boolean; balance: number; credit: number; deposits: number; withdrawals: number }>();

  before(async () => {
    t = await startApp({ config: { onlineWindowMs: WINDOW } });
    const db = t.ctx.db;
    const now = t.clock.now();
    const names = ['ann', 'Ann', 'bob', 'Böb', 'zoe', 'Åsa', ''];
    const countries = [null, 40, 56, 894, 248];
    // Every edge of the online rule: seen just inside or outside the window, or never; a session
    // live, ending now, revoked, or none.
    const seen = [null, now, now - WINDOW, now - WINDOW - 1];
    const sessions = ['none', 'live', 'ends-now', 'revoked'] as const;
    const rng = fc.sample(fc.tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: -50_000, max: 50_000 }), fc.integer({ min: 0, max: 5_000 })), { numRuns: 40, seed: 33 });
    for (let i = 0; i < 40; i++) {
      const [deposit, trade, credit] = rng[i]!;
      const lastSeen = seen[i % seen.length]!;
      const session = sessions[Math.floor(i / seen.length) % sessions.length]!;
      const user = await db
        .insertInto('users')
        .values({
          email: `list.${i}.${process.pid}@example.com`,
          password_hash: 'x',
          first_name: names[i % names.length]!,
          last_name: names[(i * 3 + 1) % names.length]!,
          sort_name: nameSortKey(names[i % names.length]!, names[(i * 3 + 1) % names.length]!),
          phone_no: ['4477', '4915', '1212', ''][i % 4]!,
          country_id: countries[i % countries.length]!,
          date_of_birth: '',
          nationality: '',
          role: i % 7 === 0 ? 'admin' : 'trader',
          is_active: i % 5 === 0 ? 0 : 1,
          is_reserved: 0,
          created_at: now - i,
          updated_at: now,
          last_seen_at: lastSeen,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The live account the entries below are on (administrators here hold money too, so every user gets one).
      const account = await db
        .insertInto('trading_accounts')
        .values({ number: 10_000_000 + user.id, user_id: user.id, kind: 'live', currency: 'USD', leverage: 100, balance_cents: 0, credit_cents: 0, state: 'active', initial_balance_cents: null, account_type_id: (await defaultAccountType(db, 'live')).id, created_at: now - i, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const withdrawal = -Math.floor(deposit / 3);
      for (const [kind, amount] of [['deposit', deposit], ['withdrawal', withdrawal], ['trade', trade], ['credit', credit]] as const) {
        if (amount !== 0) await db.insertInto('ledger_entries').values({ user_id: user.id, account_id: account.id, kind, amount_cents: amount, balance_after_cents: 0, ref_type: 'test', ref_id: `${user.id}-${kind}`, memo: '', created_at: now }).execute();
      }
      if (session !== 'none') {
        await db
          .insertInto('sessions')
          .values({ id_hash: `list-${process.pid}-${i}`.padEnd(64, 'x'), user_id: user.id, persistent: 0, created_at: now - 1000, last_seen_at: now, expires_at: session === 'ends-now' ? now : now + 60_000, ip: '', user_agent: '', revoked_at: session === 'revoked' ? now - 1 : null })
          .execute();
      }
      made.set(user.id, { online: lastSeen !== null && now - lastSeen <= WINDOW && session === 'live', balance: deposit + withdrawal + trade, credit, deposits: deposit, withdrawals: -withdrawal });
    }
  });
  after(() => t.close());

  test('without a query: every user in id order, Online by the rule at its edges, totals from the ledger', async () => {
    const all = await usersPage(t.ctx, {});
    assert.deepEqual(all.data.map((u) => u.id), [...all.data.map((u) => u.id)].sort((a, b) => a - b));
    assert.deepEqual([all.total, all.active, all.online], [all.data.length, all.data.filter((u) => u.isActive === '1').length, all.data.filter((u) => u.status === 'Online').length]);
    for (const [id, expected] of made) {
      const row = all.data.find((u) => u.id === id);
      assert.ok(row, `user ${id} listed`);
      assert.equal(row.status, expected.online ? 'Online' : 'Offline', `user ${id}`);
      assert.deepEqual([row.balance, row.totalCredit, row.totalDeposite, row.totalWithdrawals], [expected.balance, expected.credit, expected.deposits, expected.withdrawals].map(formatCents));
    }
    assert.equal([...made.values()].filter((m) => m.online).length, 6, 'six users were seen within the window and hold a live session');
  });

  test('a page holds the matching rows in the asked order from offset, and counts every match', async () => {
    const whole = (await usersPage(t.ctx, {})).data;
    const query = fc.record(
      {
        search: fc.constantFrom('a', 'an', 'b', 'bö', 'å', 'list.1', 'z', 'x', '44', 'aus', 'bel', '%', '_'),
        role: fc.constantFrom('trader' as const, 'admin' as const),
        sort: fc.constantFrom(...traderSortKeys),
        direction: fc.constantFrom('asc' as const, 'desc' as const),
        limit: fc.integer({ min: 1, max: 12 }),
        offset: fc.integer({ min: 0, max: 45 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(query, async (q: TradersQuery) => {
        const text = q.search?.toLowerCase() ?? '';
        const full = (u: TraderRow) => `${u.firstName} ${u.lastName}`.trim();
        let expected = whole.filter(
          (u) => (q.role === undefined || u.accountType === (q.role === 'admin' ? '1' : '0')) && (text === '' || [full(u), u.lastName, u.email, u.phoneNo, u.countryName].some((f) => f.toLowerCase().startsWith(text))),
        );
        const matched = expected;
        const sign = q.direction === 'desc' ? -1 : 1;
        const collate = new Intl.Collator('en', { sensitivity: 'base' });
        // Written out per column, so a column ordered by another's field fails.
        const value: Record<TraderSortKey, (u: TraderRow) => string | number> = {
          name: full,
          country: (u) => u.countryName,
          balance: (u) => Number(u.balance),
          deposits: (u) => Number(u.totalDeposite),
          credit: (u) => Number(u.totalCredit),
          withdrawals: (u) => Number(u.totalWithdrawals),
          active: (u) => (u.isActive === '1' ? 'a' : 'b'),
          online: (u) => (u.status === 'Online' ? 'a' : 'b'),
        };
        if (q.sort !== undefined) {
          const of = value[q.sort];
          expected = [...expected].sort((a, b) => {
            const x = of(a);
            const y = of(b);
            const order = typeof x === 'number' ? x - (y as number) : collate.compare(x, y as string);
            return order === 0 ? a.id - b.id : order * sign;
          });
        } else if (q.direction === 'desc') expected = [...expected].reverse();
        const from = q.offset ?? 0;
        const page = await usersPage(t.ctx, q);
        assert.deepEqual(page.data, q.limit === undefined ? expected.slice(from) : expected.slice(from, from + q.limit));
        assert.equal(page.total, matched.length);
        assert.equal(page.active, matched.filter((u) => u.isActive === '1').length);
        assert.equal(page.online, matched.filter((u) => u.status === 'Online').length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('migration 0020: the names’ sort keys', () => {
  test('users stored before it get the key of their name; a key drops case and accents and writes out ß and ø', async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    try {
      const { error } = await migratorFor(handle).migrateTo('0019-read-indexes');
      assert.equal(error, undefined);
      const db = handle.db;
      const now = Date.parse('2026-03-04T10:00:00Z');
      for (const [i, first, last] of [[1, 'Zoë', 'Ångström'], [2, 'Jörg', 'Strauß'], [3, '', 'Øster  Berg']] as const) {
        await db.insertInto('users').values({ email: `before.${i}@example.com`, password_hash: 'x', first_name: first, last_name: last, phone_no: '123', role: 'trader', leverage: 100, created_at: now, updated_at: now } as never).execute();
      }
      assert.ok((await migrateToLatest(handle)).includes('0020-name-sort-keys'));
      const keys = await db.selectFrom('users').select(['email', 'sort_name']).where('email', 'like', 'before.%').orderBy('email').execute();
      assert.deepEqual(keys.map((k) => k.sort_name), ['zoe angstrom', 'jorg strauss', 'oster berg']);
    } finally {
      await handle.close();
      await target.drop();
    }
  });
});
