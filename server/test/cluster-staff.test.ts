import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { codeAt } from '../src/services/two-factor';
import { Client, signedInStaff, signedInTrader } from './helpers/client';
import { eventually, tradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * Staff roles and four-eyes approval across two instances (docs/design.md#staff-roles,
 * docs/design.md#four-eyes-approval): a change of roles made through one instance governs the
 * person's calls on the other at once, and a withdrawal's second approval is refused to its first
 * approver whichever instance either decision goes through.
 */
const PG = process.env.DATABASE_URL ?? '';

const sessionOn = (target: Parameters<typeof tradingDesk>[0], from: Client): Client => {
  const client = new Client(target);
  client.setCookie('tp_session', from.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
  return client;
};

describe('staff roles across instances', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('roles changed through the leader apply on the follower at once; four-eyes holds across both', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      const desk = await tradingDesk(leader);
      const member = await signedInStaff(leader, desk.admin, ['support']);
      const memberOnFollower = sessionOn(follower, member.client);
      assert.equal((await memberOnFollower.get(calls.getTraders.path)).status, 200, 'the follower knows the session');
      assert.equal((await memberOnFollower.get(calls.getPendingWithdrawal.path)).status, 403);

      // Finance granted through the leader: the follower's next answer follows it.
      const granted = await desk.admin.post(calls.editStaffMember.path, { id: member.id, roles: ['finance', 'support'] });
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
      await eventually('the follower applies the new role', async () => (await memberOnFollower.get(calls.getPendingWithdrawal.path)).status === 200, 1000);
      // Taken away through the follower: refused on the leader.
      const adminOnFollower = sessionOn(follower, desk.admin);
      assert.equal((await adminOnFollower.post(calls.editStaffMember.path, { id: member.id, roles: ['support'] })).status, 200);
      await eventually('the leader applies the change', async () => (await member.client.get(calls.getPendingWithdrawal.path)).status === 403, 1000);

      // Four-eyes: the first approval through the follower, the first approver refused on the leader,
      // another Finance member completes it on the leader; the money moves once.
      const financeA = await signedInStaff(leader, desk.admin, ['finance']);
      const financeB = await signedInStaff(leader, desk.admin, ['finance']);
      const trader = await desk.fundedTrader('30000.00');
      const w = await trader.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '20000.00', paymentAccount: 'IBAN' });
      assert.equal(w.status, 200, JSON.stringify(w.body));
      // A follower takes a call that moves money once it follows the leader's prices (until then it
      // answers 503 with Retry-After, nothing done: docs/architecture.md#several-instances).
      await eventually("the follower follows the leader's prices", async () => follower.app.cluster.busUp(), 10_000);
      const first = await sessionOn(follower, financeA.client).post(calls.editStatusWithdrawal.path, { withdrawals_id: w.body.id, status: 1 });
      assert.match(first.body.message, /has its first approval/);
      const refused = await financeA.client.post(calls.editStatusWithdrawal.path, { withdrawals_id: w.body.id, status: 1 });
      assert.equal(refused.status, 403);
      const second = await financeB.client.post(calls.editStatusWithdrawal.path, { withdrawals_id: w.body.id, status: 1 });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const ledger = await leader.ctx.db.selectFrom('ledger_entries').select('id').where('ref_type', '=', 'money_request').where('ref_id', '=', String(w.body.id)).execute();
      assert.equal(ledger.length, 1);
    } finally {
      await close();
    }
  });

  test('two-factor across instances: the password on one, the code on the other; a reset through one ends the sessions on both', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      const desk = await tradingDesk(leader);
      const trader = await signedInTrader(leader);
      const setup = await trader.client.post(calls.startTwoFactorSetup.path);
      const secret = (setup.body.secret as string).replace(/ /g, '');
      const done = await trader.client.post(calls.confirmTwoFactorSetup.path, { code: codeAt(leader.ctx, secret, Date.now()) });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const backupCodes = done.body.backupCodes as string[];

      // The password step through the follower, the code through the leader: the step lives in the database.
      const onFollower = new Client(follower);
      assert.equal((await onFollower.post('/login.php', { email: trader.email, password: trader.password })).body.status, 'TwoFactor');
      const onLeader = new Client(leader);
      onLeader.setCookie('tp_signin', onFollower.cookieHeader.split('tp_signin=')[1]!.split(';')[0]!);
      assert.equal((await onLeader.post(calls.verifySignIn.path, { code: backupCodes[0] })).body.status, 'Success');
      const sessionOnFollower = sessionOn(follower, onLeader);
      assert.equal((await sessionOnFollower.get(calls.getTwoFactor.path)).body.enabled, true);
      // The same backup code through the other instance: used.
      const again = new Client(follower);
      await again.post('/login.php', { email: trader.email, password: trader.password });
      assert.equal((await again.post(calls.verifySignIn.path, { code: backupCodes[0] })).status, 400);

      // Another device signed in through the follower, signed out from the leader's session list at once.
      const other = new Client(follower);
      await other.post('/login.php', { email: trader.email, password: trader.password });
      assert.equal((await other.post(calls.verifySignIn.path, { code: backupCodes[1] })).body.status, 'Success');
      const listed = (await onLeader.get(calls.getSessions.path)).body.data as { id: string; current: boolean }[];
      assert.equal(listed.length, 3, 'the sign-up session, the leader one and the follower one');
      assert.equal((await onLeader.post(calls.endOtherSessions.path)).body.ended, 2);
      await eventually('the follower ends the other session', async () => (await other.get('/testSession.php')).body.status === 'Failure', 1000);
      assert.equal((await sessionOnFollower.get('/testSession.php')).body.status, 'success', 'the current one stays, on either instance');

      // Support resets it through the follower: the session ends on the leader at once.
      const support = await signedInStaff(leader, desk.admin, ['support']);
      const reset = await sessionOn(follower, support.client).post(calls.resetTraderTwoFactor.path, { userId: trader.id });
      assert.equal(reset.status, 200, JSON.stringify(reset.body));
      await eventually('the leader ends the session', async () => (await onLeader.get('/testSession.php')).body.status === 'Failure', 1000);
      assert.equal((await sessionOnFollower.get('/testSession.php')).body.status, 'Failure');
    } finally {
      await close();
    }
  });
});
