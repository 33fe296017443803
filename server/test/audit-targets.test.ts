import assert from 'node:assert/strict';
import { calls } from '@tradeport/contracts';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

type Entry = { id: number; action: string; targetType: string; targetId: string; targetUser: { id: number; firstName: string; lastName: string; email: string } | null };

/** The audit log names the user each action was about, so the back office need not look up 'User #3'. */
describe('audit log target users', () => {
  let t: TestApp;
  let desk: TradingDesk;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Audit target bank');
  });
  after(() => t.close());

  test('each entry carries the user it was about: the user, the position’s owner, the request’s owner; none for a payment account', async () => {
    const ann = await desk.fundedTrader('1000.00', { firstName: 'Ann', lastName: 'Öberg' });
    const bob = await desk.fundedTrader('1000.00', { firstName: 'Bob', lastName: 'Byrne' });
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ticket = await openPosition(bob.client, { side: 'buy', volume: 0.01 });
    assert.equal((await desk.admin.post(calls.editStatusTrades.path, { traders_id: bob.id, ticket })).status, 200);
    assert.equal((await desk.admin.postForm(calls.editStatusTraders.path, { id: ann.id, isActive: '0' })).status, 200);

    const r = await desk.admin.get(`${calls.getAuditLog.path}?limit=500`);
    assert.equal(r.status, 200);
    const entries = r.body.data as Entry[];
    const ann_ = { id: ann.id, firstName: 'Ann', lastName: 'Öberg', email: ann.email };
    const bob_ = { id: bob.id, firstName: 'Bob', lastName: 'Byrne', email: bob.email };
    const find = (action: string, targetId: number | string) => entries.find((e) => e.action === action && e.targetId === String(targetId));
    assert.deepEqual(find('user.status', ann.id)?.targetUser, ann_);
    assert.deepEqual(find('position.close', ticket)?.targetUser, bob_);
    const deposits = entries.filter((e) => e.action === 'deposit.approve');
    assert.equal(deposits.length, 2);
    assert.deepEqual(deposits.map((e) => e.targetUser?.id).sort(), [ann.id, bob.id].sort());
    assert.deepEqual(deposits.find((e) => e.targetUser?.id === bob.id)?.targetUser, bob_);
    const bank = entries.find((e) => e.action === 'payment_account.add');
    assert.ok(bank);
    assert.equal(bank.targetUser, null);
  });

  test('asked again, the log shows a target user renamed since (their profile edited, which adds no entry of its own)', async () => {
    const cy = await desk.fundedTrader('1000.00', { firstName: 'Cy', lastName: 'Young' });
    const page = async () => ((await desk.admin.get(`${calls.getAuditLog.path}?limit=50`)).body.data as Entry[]).find((e) => e.action === 'deposit.approve' && e.targetUser?.id === cy.id)?.targetUser;
    assert.equal((await page())?.firstName, 'Cy');
    assert.equal((await page())?.firstName, 'Cy', 'the same page again');
    const edited = await cy.client.post('/dashboard/customer/editProfileDetails.php', { firstName: 'Cyrus', lastName: 'Young', phoneNo: '4915112345678', country_id: '840', dateOfBirth: '', nationality: '' });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal((await page())?.firstName, 'Cyrus');
  });

  test('an entry whose target is gone or not a number has no target user, and the log still answers', async () => {
    const at = t.clock.now();
    const row = { actor_id: null, before_json: 'null', after_json: 'null', ip: '127.0.0.1', created_at: at };
    await t.ctx.db
      .insertInto('audit_log')
      .values([
        { ...row, action: 'user.status', target_type: 'user', target_id: '2147483647' },
        { ...row, action: 'position.close', target_type: 'position', target_id: '99999' },
        { ...row, action: 'user.status', target_type: 'user', target_id: 'console' },
        { ...row, action: 'user.status', target_type: 'user', target_id: '99999999999' },
      ])
      .execute();
    const r = await desk.admin.get(`${calls.getAuditLog.path}?limit=4`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      (r.body.data as Entry[]).map((e) => [e.targetId, e.targetUser]),
      [
        ['99999999999', null],
        ['console', null],
        ['99999', null],
        ['2147483647', null],
      ],
    );
  });
});
