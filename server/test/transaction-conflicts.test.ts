import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { CONFLICT_MESSAGE, transactionConflict } from '../src/plugins/security';
import { findLedgerMismatches } from '../src/services/ledger';
import { startApp, type TestApp } from './helpers/app';
import { paymentAccount, signedInAdmin, signedInTrader } from './helpers/client';

const PG = process.env.DATABASE_URL ?? '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a request whose transaction PostgreSQL rolls back to break a conflict', () => {
  test('deadlocks and serialization failures are told apart from other database errors', () => {
    assert.ok(transactionConflict({ code: '40P01' }));
    assert.ok(transactionConflict({ code: '40001' }));
    assert.ok(!transactionConflict({ code: '23505' }));
    assert.ok(!transactionConflict({}));
  });

  describe('on PostgreSQL', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)' }, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp();
    });
    after(() => t.close());

    test('a deposit approval caught in a deadlock is answered 503 with Retry-After, changes nothing, and succeeds when sent again', async () => {
      const admin = await signedInAdmin(t);
      const gateway = await paymentAccount(admin);
      const { client: trader, id: traderId } = await signedInTrader(t);
      const dep = await trader.post('/platform/addDeposite.php', { depositAmount: '300', paymentAccount: '1234', payment_getways_id: gateway });
      assert.equal(dep.body.status, 'success');
      const requestId = dep.body.id as number;

      // Another writer (another instance, say) holds the trader's row and then wants the request's
      // row, which the approval has updated by then: a lock cycle. Its own deadlock check waits
      // longer, so PostgreSQL rolls back the approval's transaction to break it.
      const other = new pg.Client({ connectionString: t.config.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query("set local deadlock_timeout = '10s'");
        await other.query('select id from users where id = $1 for update', [traderId]);
        const approval = admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: requestId, status: 1 });
        // The approval has updated its request and waits for the trader's row.
        for (let i = 0; ; i++) {
          const { rows } = await other.query<{ n: string }>("select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()");
          if (Number(rows[0]?.n) > 0) break;
          assert.ok(i < 200, 'the approval never waited for the trader row');
          await sleep(25);
        }
        const blocked = other.query("update money_requests set status = status where id = $1", [requestId]);
        const reply = await approval;
        await blocked;
        await other.query('rollback');

        assert.equal(reply.status, 503);
        assert.equal(reply.headers.get('retry-after'), '1');
        assert.deepEqual(reply.body, { status: 'Failure', message: CONFLICT_MESSAGE });
      } finally {
        await other.end();
      }
      const row = await t.ctx.db.selectFrom('money_requests').select(['status']).where('id', '=', requestId).executeTakeFirstOrThrow();
      assert.equal(row.status, '0', 'the request stays pending');
      assert.equal((await t.ctx.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', traderId).execute()).length, 0);

      const again = await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: requestId, status: 1 });
      assert.equal(again.status, 200);
      assert.equal(again.body.status, 'success');
      const profile = await trader.get('/dashboard/customer/getProfileDetails.php');
      assert.equal(profile.body.data[0].totalBalance, '300.00');
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    });
  });
});
