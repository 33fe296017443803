import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findLedgerMismatches } from '../src/services/ledger';
import { startApp, type TestApp } from './helpers/app';
import { paymentAccount, signedInAdmin, signedInTrader } from './helpers/client';

describe('money requests under concurrency', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  test('50 simultaneous approvals of one deposit credit the balance exactly once', async () => {
    const admin = await signedInAdmin(t);
    const gateway = await paymentAccount(admin);
    const { client: trader, id: traderId } = await signedInTrader(t);
    const dep = await trader.post('/platform/addDeposite.php', { depositAmount: '250.00', paymentAccount: '9876', payment_getways_id: gateway });
    assert.equal(dep.body.status, 'success');

    const replies = await Promise.all(Array.from({ length: 50 }, () => admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: dep.body.id, status: 1 })));
    const ok = replies.filter((r) => r.status === 200);
    assert.equal(ok.length, 1, 'exactly one approval succeeds');
    for (const r of replies.filter((x) => x.status !== 200)) {
      assert.equal(r.status, 409);
      assert.equal(r.body.status, 'Failure');
      assert.equal(r.body.message, `Deposit request #${dep.body.id} has already been approved.`);
    }
    const profile = await trader.get('/dashboard/customer/getProfileDetails.php');
    assert.equal(profile.body.data[0].totalBalance, '250.00');
    const entries = await t.ctx.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', traderId).execute();
    assert.equal(entries.length, 1);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  test('approving and rejecting one withdrawal at the same time: one decision wins, money moves at most once', async () => {
    const admin = await signedInAdmin(t);
    const gateway = await paymentAccount(admin, 'Second bank');
    const { client: trader, id: traderId } = await signedInTrader(t);
    const dep = await trader.post('/platform/addDeposite.php', { depositAmount: '100', paymentAccount: '1', payment_getways_id: gateway });
    await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: dep.body.id, status: 1 });
    const wd = await trader.post('/platform/addWithdrawal.php', { withdrawalsAmount: '60', paymentAccount: 'IBAN DE89 3704' });
    assert.equal(wd.body.status, 'success');

    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => admin.post('/dashboard/admin/editStatusWithdrawal.php', { withdrawals_id: wd.body.id, status: i % 2 === 0 ? 1 : 2 })),
    );
    assert.equal(replies.filter((r) => r.status === 200).length, 1);
    const row = await t.ctx.db.selectFrom('money_requests').select(['status']).where('id', '=', wd.body.id).executeTakeFirstOrThrow();
    const balance = (await trader.get('/dashboard/customer/getProfileDetails.php')).body.data[0].totalBalance;
    assert.equal(balance, row.status === '1' ? '40.00' : '100.00');
    const entries = await t.ctx.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', traderId).execute();
    assert.equal(entries.length, row.status === '1' ? 2 : 1);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });
});
