import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import { fund, paymentAccount, signedInAdmin, signedInStaff, signedInTrader, type Client } from './helpers/client';

/**
 * Four-eyes approval (docs/design.md#four-eyes-approval): a withdrawal above the second-approval
 * amount (10,000 USD unless configured) needs two decisions. The first approval moves no money and
 * the trader still sees the request pending; only a different Finance member completes or rejects
 * it, exactly once, and every step is audited.
 */
describe('four-eyes approval of large withdrawals', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  type Member = Awaited<ReturnType<typeof signedInStaff>>;
  let financeA: Member;
  let financeB: Member;
  let financeC: Member;
  let dealer: Member;

  const withdraw = async (trader: Client, amount: string) => {
    const r = await trader.post(calls.addWithdrawal.path, { withdrawalsAmount: amount, paymentAccount: 'GB29NWBK60161331926819' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id as number;
  };
  const decide = (who: Client, id: number, status: 1 | 2, reason?: string) => who.post(calls.editStatusWithdrawal.path, { withdrawals_id: id, status, ...(reason ? { reason } : {}) });
  const pendingRow = async (id: number) => ((await financeA.client.get(calls.getPendingWithdrawal.path)).body.data as { id: number; needsSecondApproval: boolean; firstApproval: { by: number; byEmail: string } | null }[]).find((r) => r.id === id);
  const balanceOf = async (trader: Client) => (await trader.get(calls.getProfileDetails.path)).body.data[0].totalBalance as string;
  const ownStatus = async (trader: Client, id: number) => ((await trader.get(calls.getTraderWithdrawals.path)).body.data as { id: number; status: string }[]).find((r) => r.id === id)!.status;
  const ledgerRows = (id: number) => t.ctx.db.selectFrom('ledger_entries').select('id').where('ref_type', '=', 'money_request').where('ref_id', '=', String(id)).execute();
  const audits = (id: number) => t.ctx.db.selectFrom('audit_log').select(['action', 'actor_id']).where('target_type', '=', 'money_request').where('target_id', '=', String(id)).orderBy('id').execute();

  async function richTrader(amount = '60000.00') {
    const trader = await signedInTrader(t);
    await fund(trader.client, admin, gateway, amount);
    return trader;
  }

  before(async () => {
    t = await startApp();
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin);
    financeA = await signedInStaff(t, admin, ['finance'], { firstName: 'Ana' });
    financeB = await signedInStaff(t, admin, ['finance'], { firstName: 'Ben' });
    financeC = await signedInStaff(t, admin, ['finance', 'support'], { firstName: 'Cleo' });
    dealer = await signedInStaff(t, admin, ['dealer']);
  });
  after(() => t.close());

  test('up to the amount, one approval pays; above it, the first approval moves nothing and the trader still sees it pending', async () => {
    const trader = await richTrader();
    const atLimit = await withdraw(trader.client, '10000.00');
    assert.equal((await pendingRow(atLimit))!.needsSecondApproval, false);
    const paid = await decide(financeA.client, atLimit, 1);
    assert.equal(paid.body.message, `Withdrawal request #${atLimit} approved successfully`);
    assert.equal(await balanceOf(trader.client), '50000.00');

    const large = await withdraw(trader.client, '10000.01');
    assert.equal((await pendingRow(large))!.needsSecondApproval, true);
    const first = await decide(financeA.client, large, 1);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.message, `Withdrawal request #${large} has its first approval; another Finance member must now complete or reject it.`);
    assert.equal(await balanceOf(trader.client), '50000.00', 'no money moves on the first approval');
    assert.equal((await ledgerRows(large)).length, 0);
    assert.equal(await ownStatus(trader.client, large), '0', 'the trader sees it pending');
    const row = (await pendingRow(large))!;
    assert.deepEqual([row.firstApproval?.by, row.firstApproval?.byEmail], [financeA.id, financeA.email]);
    assert.deepEqual((await audits(large)).map((a) => [a.action, a.actor_id]), [['withdrawal.firstApprove', financeA.id]]);

    const second = await decide(financeB.client, large, 1);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.message, `Withdrawal request #${large} approved successfully`);
    assert.equal(await balanceOf(trader.client), '39999.99');
    assert.equal(await ownStatus(trader.client, large), '1');
    assert.equal((await ledgerRows(large)).length, 1);
    assert.deepEqual((await audits(large)).map((a) => [a.action, a.actor_id]), [['withdrawal.firstApprove', financeA.id], ['withdrawal.approve', financeB.id]]);
    // Exactly once: a third decision finds it decided.
    const again = await decide(financeC.client, large, 1);
    assert.equal(again.status, 409);
    assert.equal((await ledgerRows(large)).length, 1);
  });

  test('the first approver, an administrator without Finance and a dealer cannot complete or reject it', async () => {
    const trader = await richTrader();
    const id = await withdraw(trader.client, '25000.00');
    assert.equal((await decide(admin, id, 1)).status, 200, 'an administrator may give the first approval');
    const cases: [Client, 1 | 2, number, string][] = [
      [admin, 1, 403, `You gave the first approval of withdrawal request #${id}; the second must come from another Finance member.`],
      [admin, 2, 403, `You gave the first approval of withdrawal request #${id}; the second must come from another Finance member.`],
      [dealer.client, 1, 403, 'This action needs the Administrator or Finance role.'],
    ];
    for (const [who, status, code, message] of cases) {
      const r = await decide(who, id, status, status === 2 ? 'Not you' : undefined);
      assert.deepEqual([r.status, r.body.message], [code, message]);
    }
    // A second administrator (no Finance role) may not give the second approval either.
    const otherAdmin = await signedInStaff(t, admin, ['administrator']);
    const r = await decide(otherAdmin.client, id, 1);
    assert.deepEqual([r.status, r.body.message], [403, `Withdrawal request #${id} awaits a second approval, which needs the Finance role.`]);
    assert.equal(await ownStatus(trader.client, id), '0');
    assert.equal(await balanceOf(trader.client), '60000.00');
    // Another Finance member rejects it; the trader is told the reason.
    const rejected = await decide(financeB.client, id, 2, 'Documents needed for this amount');
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    assert.equal(await ownStatus(trader.client, id), '2');
    assert.equal(await balanceOf(trader.client), '60000.00');
  });

  test('two second approvals at once: one pays, the other is refused, the money moves once', async () => {
    const trader = await richTrader();
    const id = await withdraw(trader.client, '20000.00');
    await decide(financeA.client, id, 1);
    const answers = await Promise.all([decide(financeB.client, id, 1), decide(financeC.client, id, 1)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    assert.equal((await ledgerRows(id)).length, 1);
    assert.equal(await balanceOf(trader.client), '40000.00');
  });

  test('two first approvals at once: one is recorded, the other is refused, and nothing is paid', async () => {
    const trader = await richTrader();
    const id = await withdraw(trader.client, '15000.00');
    // Each means to give the first approval: the later one must not become a payout.
    const first = (who: Client) => who.post(calls.editStatusWithdrawal.path, { withdrawals_id: id, status: 1, approval: 'first' });
    const answers = await Promise.all([first(financeA.client), first(financeB.client)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409], JSON.stringify(answers.map((a) => a.body)));
    const refused = answers.find((a) => a.status === 409)!;
    assert.equal(refused.body.message, `Withdrawal request #${id} has just had its first approval from someone else; review it again before completing it.`);
    assert.equal((await ledgerRows(id)).length, 0);
    assert.equal((await audits(id)).filter((a) => a.action === 'withdrawal.firstApprove').length, 1);
    // A decision meant as the final one needs a first approval to complete.
    const other = await withdraw(trader.client, '11000.00');
    const early = await financeC.client.post(calls.editStatusWithdrawal.path, { withdrawals_id: other, status: 1, approval: 'final' });
    assert.deepEqual([early.status, early.body.message], [409, `Withdrawal request #${other} needs two approvals and has none yet; give the first approval.`]);
    assert.equal((await pendingRow(other))!.firstApproval, null);
  });

  test('a first approval is refused when the funds no longer cover it, and the trader may still cancel while it waits', async () => {
    const trader = await richTrader('12000.00');
    const id = await withdraw(trader.client, '11000.00');
    await t.ctx.db.updateTable('trading_accounts').set({ balance_cents: 500_000 }).where('user_id', '=', trader.id).where('kind', '=', 'live').execute();
    const refused = await decide(financeA.client, id, 1);
    assert.deepEqual([refused.status, refused.body.message], [409, `Insufficient available balance to approve withdrawal request #${id}; it stays pending.`]);
    assert.equal((await pendingRow(id))!.firstApproval, null);
    await t.ctx.db.updateTable('trading_accounts').set({ balance_cents: 1_200_000 }).where('user_id', '=', trader.id).where('kind', '=', 'live').execute();
    assert.equal((await decide(financeA.client, id, 1)).status, 200);
    const cancelled = await trader.client.post(calls.cancelMoneyRequest.path, { id });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const late = await decide(financeB.client, id, 1);
    assert.equal(late.status, 409);
    assert.equal((await ledgerRows(id)).length, 0);
  });
});

describe('the second-approval amount is the operator\'s', () => {
  test('WITHDRAWAL_SECOND_APPROVAL_ABOVE=500 asks two approvals for 600 USD', async () => {
    const t = await startApp({ config: { secondApprovalAboveCents: 50_000 } });
    try {
      const admin = await signedInAdmin(t);
      const gateway = await paymentAccount(admin);
      const finance = await signedInStaff(t, admin, ['finance']);
      const trader = await signedInTrader(t);
      await fund(trader.client, admin, gateway, '1000.00');
      const w = await trader.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '600.00', paymentAccount: 'IBAN' });
      const first = await finance.client.post(calls.editStatusWithdrawal.path, { withdrawals_id: w.body.id, status: 1 });
      assert.match(first.body.message, /has its first approval/);
    } finally {
      await t.close();
    }
  });
});
