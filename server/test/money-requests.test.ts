import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { findLedgerMismatches, postToLedger } from '../src/services/ledger';
import { liveAccountOf } from './helpers/accounts';
import { startApp, type TestApp } from './helpers/app';
import { Client, fund, paymentAccount, signedInAdmin, signedInTrader } from './helpers/client';

/**
 * Deposits, withdrawals and the broker's payment accounts over real HTTP: creation and its
 * refusals, the admin's once-only decisions, the ledger they post, Idempotency-Key retries, and
 * who may call what.
 */

const ADD_DEPOSIT = calls.addDeposite.path;
const ADD_WITHDRAWAL = calls.addWithdrawal.path;
const OWN_DEPOSITS = calls.getTraderDeposites.path;
const OWN_WITHDRAWALS = calls.getTraderWithdrawals.path;
const ACTIVE_GATEWAYS = calls.getPaymentGetwaysActive.path;
const PROFILE = calls.getProfileDetails.path;
const ALL_GATEWAYS = calls.getPaymentGetways.path;
const ADD_GATEWAY = calls.addNewPayments.path;
const GATEWAY_STATUS = calls.editStatusPayments.path;
const PENDING_DEPOSITS = calls.getPendingDeposite.path;
const PENDING_WITHDRAWALS = calls.getPendingWithdrawal.path;
const DECIDE_DEPOSIT = calls.editStatusDeposite.path;
const DECIDE_WITHDRAWAL = calls.editStatusWithdrawal.path;

const DEPOSIT_AMOUNT_MESSAGE = 'Please enter a valid deposit amount (a positive number with at most 2 decimals).';
const WITHDRAWAL_AMOUNT_MESSAGE = 'Please enter a valid withdrawal amount (a positive number with at most 2 decimals).';
const DEPOSIT_SENT = 'Deposit request sent successfully. Please wait for admin approval.';
const WITHDRAWAL_SENT = 'Withdrawal request sent successfully. Please wait for admin approval.';

// Many sign-ups and sign-ins from one address within a minute; the limits are tested elsewhere.
const roomyLimits = { signupRateLimitPerMinute: 10_000, signinRateLimitPerMinute: 10_000 };

describe('money requests', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin, 'Shared bank');
  });
  after(() => t.close());

  const countRequests = async (userId: number): Promise<number> => {
    const row = await t.ctx.db.selectFrom('money_requests').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const requestStatus = async (id: number): Promise<string> =>
    (await t.ctx.db.selectFrom('money_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const profileOf = async (c: Client) => (await c.get(PROFILE)).body.data[0];
  const nowIso = () => new Date(t.clock.now()).toISOString();

  // ------------------------------------------------------------------ payment accounts

  describe('payment accounts', () => {
    test('an admin adds an account by multipart form; it is created active and listed with isActive', async () => {
      const r = await admin.postForm(ADD_GATEWAY, { name: 'Harbour Bank', number: 'DE89370400440532013000', moreInfo: 'Use your email as reference', isActive: 1 });
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'success');
      assert.equal(r.body.message, 'Payment account Harbour Bank added.');
      assert.equal(typeof r.body.id, 'number');

      const list = await admin.get(ALL_GATEWAYS);
      assert.equal(list.status, 200);
      assert.equal(list.body.status, 'success');
      const row = list.body.data.find((p: { id: number }) => p.id === r.body.id);
      assert.deepEqual(row, { id: r.body.id, name: 'Harbour Bank', number: 'DE89370400440532013000', moreInfo: 'Use your email as reference', isActive: '1', createdAt: nowIso() });
      for (const p of list.body.data) assert.ok(p.isActive === '1' || p.isActive === '0');
    });

    test('a trader sees only active accounts; deactivating and reactivating an account hides and shows it', async () => {
      const { client: trader } = await signedInTrader(t);
      const id = await paymentAccount(admin, 'Toggle Bank');

      const visible = await trader.get(ACTIVE_GATEWAYS);
      assert.equal(visible.status, 200);
      assert.equal(visible.body.status, 'success');
      assert.deepEqual(
        visible.body.data.find((p: { id: number }) => p.id === id),
        { id, name: 'Toggle Bank', number: 'GB29NWBK60161331926819', moreInfo: 'Reference: your email' },
      );

      const off = await admin.postForm(GATEWAY_STATUS, { id, isActive: '0' });
      assert.equal(off.status, 200);
      assert.deepEqual(off.body, { status: 'success', message: 'Payment account Toggle Bank is now inactive.' });
      const adminRow = (await admin.get(ALL_GATEWAYS)).body.data.find((p: { id: number }) => p.id === id);
      assert.equal(adminRow.isActive, '0');
      const hidden = await trader.get(ACTIVE_GATEWAYS);
      assert.equal(hidden.body.data.some((p: { id: number }) => p.id === id), false);
      const active = (await admin.get(ALL_GATEWAYS)).body.data.filter((p: { isActive: string }) => p.isActive === '1').map((p: { id: number }) => p.id);
      assert.deepEqual(hidden.body.data.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b), active.sort((a: number, b: number) => a - b));

      const on = await admin.postForm(GATEWAY_STATUS, { id, isActive: '1' });
      assert.deepEqual(on.body, { status: 'success', message: 'Payment account Toggle Bank is now active.' });
      assert.equal((await trader.get(ACTIVE_GATEWAYS)).body.data.some((p: { id: number }) => p.id === id), true);
    });

    test('adding an account without a name or number is refused and adds nothing', async () => {
      const before = (await admin.get(ALL_GATEWAYS)).body.data.length;
      const noName = await admin.postForm(ADD_GATEWAY, { number: '123456', moreInfo: '', isActive: 1 });
      assert.equal(noName.status, 400);
      assert.deepEqual(noName.body, { status: 'Failure', message: 'Please enter the account name.' });
      const blankName = await admin.postForm(ADD_GATEWAY, { name: '   ', number: '123456', moreInfo: '', isActive: 1 });
      assert.equal(blankName.status, 400);
      assert.deepEqual(blankName.body, { status: 'Failure', message: 'Please enter the account name.' });
      const noNumber = await admin.postForm(ADD_GATEWAY, { name: 'Numberless', moreInfo: '', isActive: 1 });
      assert.equal(noNumber.status, 400);
      assert.deepEqual(noNumber.body, { status: 'Failure', message: 'Please enter the account number.' });
      assert.equal((await admin.get(ALL_GATEWAYS)).body.data.length, before);
    });

    test('changing the status of an unknown account is 404; an invalid isActive is 400', async () => {
      const missing = await admin.postForm(GATEWAY_STATUS, { id: 987654, isActive: '0' });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { status: 'Failure', message: 'Payment account not found.' });
      const bad = await admin.postForm(GATEWAY_STATUS, { id: gateway, isActive: 'maybe' });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { status: 'Failure', message: "isActive must be '1' or '0'." });
    });
  });

  // ------------------------------------------------------------------ deposits

  describe('deposits', () => {
    test('a deposit request is created pending and listed for its trader in the spec shape', async () => {
      const { client: trader, id: traderId } = await signedInTrader(t);
      const r = await trader.post(ADD_DEPOSIT, { depositAmount: '100.50', paymentAccount: 'DE12 3456', payment_getways_id: gateway });
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'success');
      assert.equal(r.body.message, DEPOSIT_SENT);
      assert.equal(typeof r.body.id, 'number');

      const list = await trader.get(OWN_DEPOSITS);
      assert.equal(list.status, 200);
      assert.equal(list.body.status, 'success');
      assert.deepEqual(list.body.data, [
        {
          id: r.body.id,
          traders_id: traderId,
          accountNumber: (await liveAccountOf(t.ctx.db, traderId)).number,
          paymentAccount: 'DE12 3456',
          payment_getways_id: gateway,
          paymentGatewayName: 'Shared bank',
          number: 'GB29NWBK60161331926819',
          depositAmount: '100.50',
          timeStamp: nowIso(),
          status: '0',
          decidedAt: null,
          rejectReason: null,
        },
      ]);
      assert.equal(await countRequests(traderId), 1);
      // Pending money is not money yet.
      assert.equal((await profileOf(trader)).totalBalance, '0.00');
    });

    test('an amount sent as a JSON number is accepted and stored exactly', async () => {
      const { client: trader } = await signedInTrader(t);
      const r = await trader.post(ADD_DEPOSIT, { depositAmount: 100.5, paymentAccount: 1234, payment_getways_id: String(gateway) });
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'success');
      const [row] = (await trader.get(OWN_DEPOSITS)).body.data;
      assert.equal(row.depositAmount, '100.50');
      assert.equal(row.paymentAccount, '1234');
    });

    test('the default maximum deposit is 1,000,000: exactly the maximum is accepted, a cent more is refused', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const over = await trader.post(ADD_DEPOSIT, { depositAmount: '1000000.01', paymentAccount: '1', payment_getways_id: gateway });
      assert.equal(over.status, 400);
      assert.deepEqual(over.body, { status: 'Failure', message: 'The maximum deposit amount is 1,000,000.00 USD.' });
      assert.equal(await countRequests(id), 0);
      const max = await trader.post(ADD_DEPOSIT, { depositAmount: '1000000', paymentAccount: '1', payment_getways_id: gateway });
      assert.equal(max.status, 200);
      assert.equal((await trader.get(OWN_DEPOSITS)).body.data[0].depositAmount, '1000000.00');
    });

    const badAmounts: [string, unknown][] = [
      ['zero', '0'],
      ['zero with decimals', '0.00'],
      ['a negative amount', '-5'],
      ['a negative JSON number', -5],
      ['three decimals', '10.123'],
      ['a binary-float artefact (0.1 + 0.2 as a JSON number)', 0.1 + 0.2],
      ['a non-numeric string', 'ten dollars'],
      ['an exponent', '1e3'],
      ['an empty string', ''],
      ['null', null],
      ['a boolean', true],
    ];
    for (const [what, amount] of badAmounts) {
      test(`a deposit of ${what} is refused with 400 and creates nothing`, async () => {
        const { client: trader, id } = await signedInTrader(t);
        const r = await trader.post(ADD_DEPOSIT, { depositAmount: amount, paymentAccount: '1234', payment_getways_id: gateway });
        assert.equal(r.status, 400);
        assert.deepEqual(r.body, { status: 'Failure', message: DEPOSIT_AMOUNT_MESSAGE });
        assert.equal(await countRequests(id), 0);
      });
    }

    test('a deposit with the amount missing is refused', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const r = await trader.post(ADD_DEPOSIT, { paymentAccount: '1234', payment_getways_id: gateway });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { status: 'Failure', message: DEPOSIT_AMOUNT_MESSAGE });
      assert.equal(await countRequests(id), 0);
    });

    test('a deposit to an inactive payment account is refused and creates nothing', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const inactive = await paymentAccount(admin, 'Closed Bank');
      await admin.postForm(GATEWAY_STATUS, { id: inactive, isActive: '0' });
      const r = await trader.post(ADD_DEPOSIT, { depositAmount: '50', paymentAccount: '1234', payment_getways_id: inactive });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { status: 'Failure', message: 'Please select an active payment account.' });
      assert.equal(await countRequests(id), 0);
    });

    test('a deposit to an unknown payment account is refused and creates nothing', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const r = await trader.post(ADD_DEPOSIT, { depositAmount: '50', paymentAccount: '1234', payment_getways_id: 987654 });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { status: 'Failure', message: 'Please select an active payment account.' });
      const malformed = await trader.post(ADD_DEPOSIT, { depositAmount: '50', paymentAccount: '1234', payment_getways_id: 'abc' });
      assert.equal(malformed.status, 400);
      assert.deepEqual(malformed.body, { status: 'Failure', message: 'Please select a payment account.' });
      assert.equal(await countRequests(id), 0);
    });

    test('a deposit without the trader’s paymentAccount is refused and creates nothing', async () => {
      const { client: trader, id } = await signedInTrader(t);
      for (const body of [
        { depositAmount: '50', payment_getways_id: gateway },
        { depositAmount: '50', paymentAccount: '   ', payment_getways_id: gateway },
      ]) {
        const r = await trader.post(ADD_DEPOSIT, body);
        assert.equal(r.status, 400);
        assert.deepEqual(r.body, { status: 'Failure', message: 'Please enter your account number.' });
      }
      const tooLong = await trader.post(ADD_DEPOSIT, { depositAmount: '50', paymentAccount: 'x'.repeat(65), payment_getways_id: gateway });
      assert.equal(tooLong.status, 400);
      assert.deepEqual(tooLong.body, { status: 'Failure', message: 'The account reference must be at most 64 characters.' });
      const noGateway = await trader.post(ADD_DEPOSIT, { depositAmount: '50', paymentAccount: '1234' });
      assert.equal(noGateway.status, 400);
      assert.deepEqual(noGateway.body, { status: 'Failure', message: 'Please select a payment account.' });
      assert.equal(await countRequests(id), 0);
    });

    test('a body that is not a JSON object is refused', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const r = await trader.post(ADD_DEPOSIT, '[1,2]');
      assert.equal(r.status, 400);
      assert.equal(r.body.status, 'Failure');
      assert.equal(await countRequests(id), 0);
    });

    test('a configured maximum (MAX_DEPOSIT_AMOUNT=500) is enforced', async () => {
      const small = await startApp({ config: { ...roomyLimits, maxDepositCents: 50_000 } });
      try {
        const smallAdmin = await signedInAdmin(small);
        const bank = await paymentAccount(smallAdmin);
        const { client: trader } = await signedInTrader(small);
        const over = await trader.post(ADD_DEPOSIT, { depositAmount: '500.01', paymentAccount: '1', payment_getways_id: bank });
        assert.equal(over.status, 400);
        assert.deepEqual(over.body, { status: 'Failure', message: 'The maximum deposit amount is 500.00 USD.' });
        const ok = await trader.post(ADD_DEPOSIT, { depositAmount: '500', paymentAccount: '1', payment_getways_id: bank });
        assert.equal(ok.status, 200);
        assert.equal(ok.body.status, 'success');
        const rows = await small.ctx.db.selectFrom('money_requests').select(['amount_cents']).execute();
        assert.deepEqual(rows.map((r) => Number(r.amount_cents)), [50_000]);
      } finally {
        await small.close();
      }
    });
  });

  // ------------------------------------------------------------------ withdrawals

  describe('withdrawals', () => {
    test('a withdrawal within the balance is created pending and listed in the spec shape', async () => {
      const { client: trader, id: traderId } = await signedInTrader(t);
      await fund(trader, admin, gateway, '100');
      const r = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '60.25', paymentAccount: 'IBAN DE89 3704' });
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'success');
      assert.equal(r.body.message, WITHDRAWAL_SENT);

      const list = await trader.get(OWN_WITHDRAWALS);
      assert.equal(list.status, 200);
      assert.equal(list.body.status, 'success');
      assert.deepEqual(list.body.data, [
        { id: r.body.id, traders_id: traderId, accountNumber: (await liveAccountOf(t.ctx.db, traderId)).number, paymentAccount: 'IBAN DE89 3704', withdrawalsAmount: '60.25', timeStamp: nowIso(), status: '0', decidedAt: null, rejectReason: null },
      ]);
      // Nothing leaves the balance until an admin approves.
      assert.equal((await profileOf(trader)).totalBalance, '100.00');
    });

    test('a withdrawal above the balance is refused and creates nothing', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const none = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '0.01', paymentAccount: 'IBAN 1' });
      assert.equal(none.status, 400);
      assert.deepEqual(none.body, { status: 'Failure', message: 'Insufficient available balance. You can withdraw at most 0.00 USD.' });

      await fund(trader, admin, gateway, '100');
      const over = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '100.01', paymentAccount: 'IBAN 1' });
      assert.equal(over.status, 400);
      assert.deepEqual(over.body, { status: 'Failure', message: 'Insufficient available balance. You can withdraw at most 100.00 USD.' });
      // Only the funding deposit exists.
      assert.equal(await countRequests(id), 1);
      const all = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '100', paymentAccount: 'IBAN 1' });
      assert.equal(all.status, 200);
    });

    test('pending withdrawals are set aside: the available balance is the balance minus other pending withdrawals', async () => {
      const { client: trader, id } = await signedInTrader(t);
      await fund(trader, admin, gateway, '100');
      const first = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '60', paymentAccount: 'IBAN 1' });
      assert.equal(first.status, 200);
      const tooMuch = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '40.01', paymentAccount: 'IBAN 1' });
      assert.equal(tooMuch.status, 400);
      assert.deepEqual(tooMuch.body, { status: 'Failure', message: 'Insufficient available balance. You can withdraw at most 40.00 USD (pending withdrawals are already set aside).' });
      assert.equal(await countRequests(id), 2);
      const rest = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '40', paymentAccount: 'IBAN 1' });
      assert.equal(rest.status, 200);
      const nothingLeft = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '0.01', paymentAccount: 'IBAN 1' });
      assert.equal(nothingLeft.status, 400);
      assert.deepEqual(nothingLeft.body, { status: 'Failure', message: 'Insufficient available balance. You can withdraw at most 0.00 USD (pending withdrawals are already set aside).' });

      // A rejected withdrawal no longer holds funds.
      await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: first.body.id, status: 2 });
      const again = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '60', paymentAccount: 'IBAN 1' });
      assert.equal(again.status, 200);
    });

    test('simultaneous withdrawals cannot together set aside more than the available balance', async () => {
      // Several rounds, each a burst of identical requests from one trader: one 60.00 withdrawal
      // fits into 100.00, a second one must see the first as already set aside.
      for (let round = 0; round < 5; round++) {
        const { client: trader, id } = await signedInTrader(t);
        await fund(trader, admin, gateway, '100');
        const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '60', paymentAccount: `IBAN ${i}` })));
        for (const r of replies.filter((x) => x.status !== 200)) {
          assert.equal(r.status, 400);
          assert.equal(r.body.status, 'Failure');
          assert.match(r.body.message, /^Insufficient available balance/);
        }
        const pending = await t.ctx.db.selectFrom('money_requests').select(['amount_cents']).where('user_id', '=', id).where('kind', '=', 'withdrawal').where('status', '=', '0').execute();
        const setAside = pending.reduce((sum, r) => sum + Number(r.amount_cents), 0);
        assert.equal(replies.filter((r) => r.status === 200).length, 1, `round ${round}: exactly one 60.00 withdrawal fits into 100.00 (pending now ${setAside / 100})`);
        assert.ok(setAside <= 10_000, 'pending withdrawals never exceed the balance');
      }
    });

    test('invalid withdrawal amounts and a missing account are refused and create nothing', async () => {
      const { client: trader, id } = await signedInTrader(t);
      await fund(trader, admin, gateway, '100');
      for (const amount of ['0', '-1', '1.001', 0.1 + 0.2, 'all of it']) {
        const r = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: amount, paymentAccount: 'IBAN 1' });
        assert.equal(r.status, 400, `amount ${String(amount)}`);
        assert.deepEqual(r.body, { status: 'Failure', message: WITHDRAWAL_AMOUNT_MESSAGE });
      }
      const noAccount = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '10' });
      assert.equal(noAccount.status, 400);
      assert.deepEqual(noAccount.body, { status: 'Failure', message: 'Please enter the account to receive the funds.' });
      const overMax = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '1000000.01', paymentAccount: 'IBAN 1' });
      assert.equal(overMax.status, 400);
      assert.deepEqual(overMax.body, { status: 'Failure', message: 'The maximum withdrawal amount is 1,000,000.00 USD.' });
      assert.equal(await countRequests(id), 1);
    });
  });

  // ------------------------------------------------------------------ decisions

  describe('admin decisions', () => {
    test('approving a deposit credits the balance once; a second decision is 409', async () => {
      const { client: trader, id: traderId } = await signedInTrader(t);
      const dep = await trader.post(ADD_DEPOSIT, { depositAmount: '250.75', paymentAccount: '1234', payment_getways_id: gateway });
      const ok = await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 1 });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body, { status: 'success', message: `Deposit request #${dep.body.id} approved successfully` });
      assert.equal(await requestStatus(dep.body.id), '1');

      const p = await profileOf(trader);
      assert.equal(p.totalBalance, '250.75');
      assert.equal(p.totalDeposite, '250.75');
      assert.equal(p.totalWithdrawals, '0.00');
      assert.equal(p.totalCredit, '0.00');

      const [row] = (await trader.get(OWN_DEPOSITS)).body.data;
      assert.equal(row.status, '1');
      assert.equal(row.decidedAt, nowIso());

      for (const status of [1, 2]) {
        const again = await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status });
        assert.equal(again.status, 409);
        assert.deepEqual(again.body, { status: 'Failure', message: `Deposit request #${dep.body.id} has already been approved.` });
      }
      assert.equal((await profileOf(trader)).totalBalance, '250.75');
      const entries = await t.ctx.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', traderId).execute();
      assert.equal(entries.length, 1);
    });

    test('rejecting a deposit moves no money; a second decision is 409', async () => {
      const { client: trader, id: traderId } = await signedInTrader(t);
      const dep = await trader.post(ADD_DEPOSIT, { depositAmount: '80', paymentAccount: '1234', payment_getways_id: gateway });
      const no = await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: '2' });
      assert.equal(no.status, 200);
      assert.deepEqual(no.body, { status: 'success', message: `Deposit request #${dep.body.id} rejected successfully` });
      assert.equal(await requestStatus(dep.body.id), '2');
      const p = await profileOf(trader);
      assert.equal(p.totalBalance, '0.00');
      assert.equal(p.totalDeposite, '0.00');
      const again = await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 1 });
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, { status: 'Failure', message: `Deposit request #${dep.body.id} has already been rejected.` });
      assert.equal((await t.ctx.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', traderId).execute()).length, 0);
    });

    test('deciding an unknown deposit is 404; status 3 or a missing status is 400; a withdrawal id is not a deposit', async () => {
      const missing = await admin.post(DECIDE_DEPOSIT, { deposites_id: 987654, status: 1 });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { status: 'Failure', message: 'Deposit request #987654 was not found.' });

      const { client: trader } = await signedInTrader(t);
      const dep = await trader.post(ADD_DEPOSIT, { depositAmount: '10', paymentAccount: '1234', payment_getways_id: gateway });
      for (const status of [3, 0, '3', 'approve']) {
        const bad = await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status });
        assert.equal(bad.status, 400);
        assert.deepEqual(bad.body, { status: 'Failure', message: 'status must be 1 (approve) or 2 (reject).' });
      }
      const noStatus = await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id });
      assert.equal(noStatus.status, 400);
      const badId = await admin.post(DECIDE_DEPOSIT, { deposites_id: 'x', status: 1 });
      assert.equal(badId.status, 400);
      assert.deepEqual(badId.body, { status: 'Failure', message: 'Deposit request not found.' });
      assert.equal(await requestStatus(dep.body.id), '0');

      await fund(trader, admin, gateway, '50');
      const wd = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '5', paymentAccount: 'IBAN' });
      const crossed = await admin.post(DECIDE_DEPOSIT, { deposites_id: wd.body.id, status: 1 });
      assert.equal(crossed.status, 404);
      assert.deepEqual(crossed.body, { status: 'Failure', message: `Deposit request #${wd.body.id} was not found.` });
      const crossedBack = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: dep.body.id, status: 1 });
      assert.equal(crossedBack.status, 404);
      assert.deepEqual(crossedBack.body, { status: 'Failure', message: `Withdrawal request #${dep.body.id} was not found.` });
      assert.equal(await requestStatus(wd.body.id), '0');
      assert.equal(await requestStatus(dep.body.id), '0');
    });

    test('the pending deposit list shows only pending requests, oldest first, with the trader’s name and email', async () => {
      const a = await signedInTrader(t, { firstName: 'Penny', lastName: 'Pending' });
      const b = await signedInTrader(t, { firstName: 'Quentin', lastName: 'Queue' });
      const d1 = (await a.client.post(ADD_DEPOSIT, { depositAmount: '11', paymentAccount: 'A1', payment_getways_id: gateway })).body.id as number;
      const d2 = (await b.client.post(ADD_DEPOSIT, { depositAmount: '22', paymentAccount: 'B1', payment_getways_id: gateway })).body.id as number;
      const d3 = (await a.client.post(ADD_DEPOSIT, { depositAmount: '33', paymentAccount: 'A2', payment_getways_id: gateway })).body.id as number;
      const d4 = (await b.client.post(ADD_DEPOSIT, { depositAmount: '44', paymentAccount: 'B2', payment_getways_id: gateway })).body.id as number;
      await admin.post(DECIDE_DEPOSIT, { deposites_id: d2, status: 1 });
      await admin.post(DECIDE_DEPOSIT, { deposites_id: d3, status: 2 });

      const r = await admin.get(PENDING_DEPOSITS);
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'success');
      const data = r.body.data as { id: number; status: string }[];
      assert.ok(data.every((row) => row.status === '0'));
      const ids = data.map((row) => row.id);
      assert.deepEqual(ids, [...ids].sort((x, y) => x - y), 'oldest first');
      const mine = data.filter((row) => [d1, d2, d3, d4].includes(row.id));
      assert.deepEqual(mine, [
        { id: d1, traders_id: a.id, accountNumber: (await liveAccountOf(t.ctx.db, a.id)).number, paymentAccount: 'A1', payment_getways_id: gateway, paymentGatewayName: 'Shared bank', number: 'GB29NWBK60161331926819', depositAmount: '11.00', timeStamp: nowIso(), status: '0', decidedAt: null, rejectReason: null, notes: 0, firstName: 'Penny', lastName: 'Pending', email: a.email },
        { id: d4, traders_id: b.id, accountNumber: (await liveAccountOf(t.ctx.db, b.id)).number, paymentAccount: 'B2', payment_getways_id: gateway, paymentGatewayName: 'Shared bank', number: 'GB29NWBK60161331926819', depositAmount: '44.00', timeStamp: nowIso(), status: '0', decidedAt: null, rejectReason: null, notes: 0, firstName: 'Quentin', lastName: 'Queue', email: b.email },
      ]);
    });

    test('approving a withdrawal debits the balance once; rejecting one moves nothing; repeats are 409', async () => {
      const { client: trader, id: traderId } = await signedInTrader(t);
      await fund(trader, admin, gateway, '500');
      const w1 = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '120.40', paymentAccount: 'IBAN 1' });
      const w2 = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '30', paymentAccount: 'IBAN 2' });

      const yes = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: w1.body.id, status: 1 });
      assert.equal(yes.status, 200);
      assert.deepEqual(yes.body, { status: 'success', message: `Withdrawal request #${w1.body.id} approved successfully` });
      const no = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: w2.body.id, status: 2 });
      assert.equal(no.status, 200);
      assert.deepEqual(no.body, { status: 'success', message: `Withdrawal request #${w2.body.id} rejected successfully` });

      const p = await profileOf(trader);
      assert.equal(p.totalBalance, '379.60');
      assert.equal(p.totalDeposite, '500.00');
      assert.equal(p.totalWithdrawals, '120.40');

      const again1 = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: w1.body.id, status: 1 });
      assert.equal(again1.status, 409);
      assert.deepEqual(again1.body, { status: 'Failure', message: `Withdrawal request #${w1.body.id} has already been approved.` });
      const again2 = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: w2.body.id, status: 1 });
      assert.equal(again2.status, 409);
      assert.deepEqual(again2.body, { status: 'Failure', message: `Withdrawal request #${w2.body.id} has already been rejected.` });

      const list = (await trader.get(OWN_WITHDRAWALS)).body.data as { id: number; status: string }[];
      assert.deepEqual(list.map((w) => [w.id, w.status]), [[w2.body.id, '2'], [w1.body.id, '1']], 'newest first');
      assert.equal((await profileOf(trader)).totalBalance, '379.60');
      const entries = await t.ctx.db.selectFrom('ledger_entries').select(['kind', 'amount_cents']).where('user_id', '=', traderId).orderBy('id').execute();
      assert.deepEqual(entries.map((e) => [e.kind, Number(e.amount_cents)]), [['deposit', 50_000], ['withdrawal', -12_040]]);
    });

    test('withdrawal decisions: unknown id is 404, status 3 is 400', async () => {
      const missing = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: 987654, status: 2 });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { status: 'Failure', message: 'Withdrawal request #987654 was not found.' });
      const { client: trader } = await signedInTrader(t);
      await fund(trader, admin, gateway, '10');
      const wd = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '5', paymentAccount: 'IBAN' });
      const bad = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wd.body.id, status: 3 });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { status: 'Failure', message: 'status must be 1 (approve) or 2 (reject).' });
      assert.equal(await requestStatus(wd.body.id), '0');
    });

    test('the pending withdrawal list shows only pending requests, oldest first, with the trader’s name and email', async () => {
      const a = await signedInTrader(t, { firstName: 'Walt', lastName: 'Withdrawer' });
      await fund(a.client, admin, gateway, '100');
      const w1 = (await a.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '10', paymentAccount: 'W1' })).body.id as number;
      const w2 = (await a.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '20', paymentAccount: 'W2' })).body.id as number;
      const w3 = (await a.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '30', paymentAccount: 'W3' })).body.id as number;
      await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: w2, status: 1 });

      const r = await admin.get(PENDING_WITHDRAWALS);
      assert.equal(r.status, 200);
      const data = r.body.data as { id: number; status: string }[];
      assert.ok(data.every((row) => row.status === '0'));
      const ids = data.map((row) => row.id);
      assert.deepEqual(ids, [...ids].sort((x, y) => x - y), 'oldest first');
      assert.deepEqual(
        data.filter((row) => [w1, w2, w3].includes(row.id)),
        [
          { id: w1, traders_id: a.id, accountNumber: (await liveAccountOf(t.ctx.db, a.id)).number, paymentAccount: 'W1', withdrawalsAmount: '10.00', timeStamp: nowIso(), status: '0', decidedAt: null, rejectReason: null, notes: 0, firstName: 'Walt', lastName: 'Withdrawer', email: a.email, needsSecondApproval: false, firstApproval: null },
          { id: w3, traders_id: a.id, accountNumber: (await liveAccountOf(t.ctx.db, a.id)).number, paymentAccount: 'W3', withdrawalsAmount: '30.00', timeStamp: nowIso(), status: '0', decidedAt: null, rejectReason: null, notes: 0, firstName: 'Walt', lastName: 'Withdrawer', email: a.email, needsSecondApproval: false, firstApproval: null },
        ],
      );
    });

    test('approval re-checks funds: a withdrawal no longer covered by the balance is refused with 409 and stays pending', async () => {
      const { client: trader, id: traderId } = await signedInTrader(t);
      await fund(trader, admin, gateway, '100');
      const wd = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '80', paymentAccount: 'IBAN 1' });
      assert.equal(wd.status, 200);
      // The balance drops after the request was made (as a trading loss would).
      const accountId = (await liveAccountOf(t.ctx.db, traderId)).id;
      await t.ctx.db.transaction().execute((trx) =>
        postToLedger(trx, { accountId, userId: traderId, kind: 'adjustment', amountCents: -5_000, refType: 'test', refId: `recheck-${wd.body.id}`, memo: 'test', at: t.clock.now() }),
      );
      const auditBefore = (await t.ctx.db.selectFrom('audit_log').select('id').execute()).length;

      const r = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wd.body.id, status: 1 });
      assert.equal(r.status, 409);
      assert.equal(r.body.status, 'Failure');
      assert.match(r.body.message, /Insufficient available balance/);
      assert.equal(r.body.message, `Insufficient available balance to approve withdrawal request #${wd.body.id}; it stays pending.`);
      assert.equal(await requestStatus(wd.body.id), '0');
      assert.equal((await profileOf(trader)).totalBalance, '50.00');
      assert.equal((await t.ctx.db.selectFrom('audit_log').select('id').execute()).length, auditBefore, 'a refused decision is not audited as done');
      assert.ok((await admin.get(PENDING_WITHDRAWALS)).body.data.some((w: { id: number }) => w.id === wd.body.id));

      // It can still be rejected.
      const no = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wd.body.id, status: 2 });
      assert.equal(no.status, 200);
      assert.equal((await profileOf(trader)).totalBalance, '50.00');
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    });

    test('a trader cannot decide requests, not even their own', async () => {
      const { client: trader } = await signedInTrader(t);
      const dep = await trader.post(ADD_DEPOSIT, { depositAmount: '999', paymentAccount: '1234', payment_getways_id: gateway });
      const r = await trader.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 1 });
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, { status: 'Failure', message: 'This action is for back-office staff only.' });
      assert.equal(await requestStatus(dep.body.id), '0');
      assert.equal((await profileOf(trader)).totalBalance, '0.00');
    });
  });

  // ------------------------------------------------------------------ ledger

  describe('ledger', () => {
    test('after a full flow every balance equals its ledger, with one money_request entry per approval', async () => {
      const { client: trader, id: traderId } = await signedInTrader(t);
      const d1 = await fund(trader, admin, gateway, '300');
      const d2 = await trader.post(ADD_DEPOSIT, { depositAmount: '45.55', paymentAccount: '1', payment_getways_id: gateway });
      await admin.post(DECIDE_DEPOSIT, { deposites_id: d2.body.id, status: 1 });
      const d3 = await trader.post(ADD_DEPOSIT, { depositAmount: '70', paymentAccount: '1', payment_getways_id: gateway });
      await admin.post(DECIDE_DEPOSIT, { deposites_id: d3.body.id, status: 2 });
      const w1 = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '100.05', paymentAccount: 'IBAN' });
      await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: w1.body.id, status: 1 });
      const w2 = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '10', paymentAccount: 'IBAN' });
      await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: w2.body.id, status: 2 });
      await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '5', paymentAccount: 'IBAN' }); // stays pending

      const entries = await t.ctx.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', traderId).orderBy('id').execute();
      assert.deepEqual(
        entries.map((e) => ({ kind: e.kind, amount: Number(e.amount_cents), after: Number(e.balance_after_cents), refType: e.ref_type, refId: e.ref_id })),
        [
          { kind: 'deposit', amount: 30_000, after: 30_000, refType: 'money_request', refId: String(d1) },
          { kind: 'deposit', amount: 4_555, after: 34_555, refType: 'money_request', refId: String(d2.body.id) },
          { kind: 'withdrawal', amount: -10_005, after: 24_550, refType: 'money_request', refId: String(w1.body.id) },
        ],
      );
      const p = await profileOf(trader);
      assert.equal(p.totalBalance, '245.50');
      assert.equal(p.totalDeposite, '345.55');
      assert.equal(p.totalWithdrawals, '100.05');
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);

      // Every approved request in the whole database has exactly one entry; nothing else has any.
      const approved = await t.ctx.db.selectFrom('money_requests').select(['id']).where('status', '=', '1').execute();
      const refs = await t.ctx.db.selectFrom('ledger_entries').select(['ref_id']).where('ref_type', '=', 'money_request').execute();
      assert.deepEqual(refs.map((r) => r.ref_id).sort(), approved.map((r) => String(r.id)).sort());
    });
  });

  // ------------------------------------------------------------------ idempotency

  describe('Idempotency-Key', () => {
    test('the same key twice returns the identical body and creates one request', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const body = { depositAmount: '75.00', paymentAccount: '1234', payment_getways_id: gateway };
      const first = await trader.post(ADD_DEPOSIT, body, { 'idempotency-key': 'dep-0001' });
      assert.equal(first.status, 200);
      assert.equal(first.body.status, 'success');
      t.clock.advance(1_000);
      const second = await trader.post(ADD_DEPOSIT, body, { 'idempotency-key': 'dep-0001' });
      assert.equal(second.status, 200);
      assert.deepEqual(second.body, first.body);
      assert.equal(await countRequests(id), 1);

      // Without a key (or with another) it is a new request.
      const other = await trader.post(ADD_DEPOSIT, body, { 'idempotency-key': 'dep-0002' });
      assert.notEqual(other.body.id, first.body.id);
      const plain = await trader.post(ADD_DEPOSIT, body);
      assert.notEqual(plain.body.id, first.body.id);
      assert.equal(await countRequests(id), 3);
    });

    test('concurrent retries with one key create one request', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const body = { depositAmount: '12.34', paymentAccount: '1234', payment_getways_id: gateway };
      const replies = await Promise.all(Array.from({ length: 10 }, () => trader.post(ADD_DEPOSIT, body, { 'idempotency-key': 'burst-key' })));
      for (const r of replies) {
        assert.equal(r.status, 200);
        assert.deepEqual(r.body, replies[0]!.body);
      }
      assert.equal(await countRequests(id), 1);
    });

    test('the same key with a different body, or on another call, is 409 and creates nothing', async () => {
      const { client: trader, id } = await signedInTrader(t);
      await fund(trader, admin, gateway, '100');
      const first = await trader.post(ADD_DEPOSIT, { depositAmount: '10', paymentAccount: '1234', payment_getways_id: gateway }, { 'idempotency-key': 'k-1' });
      assert.equal(first.status, 200);
      const changed = await trader.post(ADD_DEPOSIT, { depositAmount: '11', paymentAccount: '1234', payment_getways_id: gateway }, { 'idempotency-key': 'k-1' });
      assert.equal(changed.status, 409);
      assert.deepEqual(changed.body, { status: 'Failure', message: 'This Idempotency-Key was already used for a different request.' });
      const elsewhere = await trader.post(ADD_WITHDRAWAL, { withdrawalsAmount: '10', paymentAccount: '1234' }, { 'idempotency-key': 'k-1' });
      assert.equal(elsewhere.status, 409);
      assert.deepEqual(elsewhere.body, { status: 'Failure', message: 'This Idempotency-Key was already used for a different request.' });
      assert.equal(await countRequests(id), 2); // the funding deposit and k-1
    });

    test('an invalid key is refused with 400 and creates nothing', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const body = { depositAmount: '10', paymentAccount: '1234', payment_getways_id: gateway };
      for (const key of ['k'.repeat(200), 'k'.repeat(129), 'has space', 'tab\tkey']) {
        const r = await trader.post(ADD_DEPOSIT, body, { 'idempotency-key': key });
        assert.equal(r.status, 400, `key ${JSON.stringify(key)}`);
        assert.deepEqual(r.body, { status: 'Failure', message: 'The Idempotency-Key header must be 1 to 128 visible ASCII characters.' });
      }
      assert.equal(await countRequests(id), 0);
      const longest = await trader.post(ADD_DEPOSIT, body, { 'idempotency-key': 'k'.repeat(128) });
      assert.equal(longest.status, 200);
    });

    test('keys are per user: two traders may use the same key', async () => {
      const a = await signedInTrader(t);
      const b = await signedInTrader(t);
      const body = { depositAmount: '10', paymentAccount: '1234', payment_getways_id: gateway };
      const ra = await a.client.post(ADD_DEPOSIT, body, { 'idempotency-key': 'shared-key' });
      const rb = await b.client.post(ADD_DEPOSIT, body, { 'idempotency-key': 'shared-key' });
      assert.equal(ra.status, 200);
      assert.equal(rb.status, 200);
      assert.notEqual(ra.body.id, rb.body.id);
      assert.equal(await countRequests(a.id), 1);
      assert.equal(await countRequests(b.id), 1);
      assert.deepEqual((await b.client.get(OWN_DEPOSITS)).body.data.map((d: { id: number }) => d.id), [rb.body.id]);
    });

    test('a refused request does not use up its key: the retry after fixing the cause succeeds', async () => {
      const { client: trader, id } = await signedInTrader(t);
      const bank = await paymentAccount(admin, 'Sometimes Bank');
      await admin.postForm(GATEWAY_STATUS, { id: bank, isActive: '0' });
      const body = { depositAmount: '10', paymentAccount: '1234', payment_getways_id: bank };
      const refused = await trader.post(ADD_DEPOSIT, body, { 'idempotency-key': 'retry-me' });
      assert.equal(refused.status, 400);
      await admin.postForm(GATEWAY_STATUS, { id: bank, isActive: '1' });
      const ok = await trader.post(ADD_DEPOSIT, body, { 'idempotency-key': 'retry-me' });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.status, 'success');
      assert.equal(await countRequests(id), 1);
    });

    test('withdrawals honour the key too: a retry does not set aside the amount twice', async () => {
      const { client: trader, id } = await signedInTrader(t);
      await fund(trader, admin, gateway, '100');
      const body = { withdrawalsAmount: '70', paymentAccount: 'IBAN' };
      const first = await trader.post(ADD_WITHDRAWAL, body, { 'idempotency-key': 'wd-1' });
      assert.equal(first.status, 200);
      const retry = await trader.post(ADD_WITHDRAWAL, body, { 'idempotency-key': 'wd-1' });
      assert.equal(retry.status, 200);
      assert.deepEqual(retry.body, first.body);
      assert.equal(await countRequests(id), 2);
    });
  });

  // ------------------------------------------------------------------ roles

  describe('who may call what', () => {
    const moneyCalls = [
      calls.getPaymentGetwaysActive,
      calls.addDeposite,
      calls.addWithdrawal,
      calls.getTraderDeposites,
      calls.getTraderWithdrawals,
      calls.getWithdrawable,
      calls.cancelMoneyRequest,
      calls.getPendingDeposite,
      calls.editStatusDeposite,
      calls.getPendingWithdrawal,
      calls.editStatusWithdrawal,
      calls.getPaymentGetways,
      calls.addNewPayments,
      calls.editStatusPayments,
      calls.getMoneyRequests,
    ];

    test('anonymous callers get 401 on every money call and change nothing', async () => {
      const anon = new Client(t);
      const requestsBefore = (await t.ctx.db.selectFrom('money_requests').select('id').execute()).length;
      for (const call of moneyCalls) {
        const r = call.method === 'GET' ? await anon.get(call.path) : await anon.post(call.path, { depositAmount: '10', paymentAccount: '1', payment_getways_id: gateway, withdrawalsAmount: '1', deposites_id: 1, withdrawals_id: 1, status: 1, name: 'x', number: '1', id: gateway, isActive: '0' });
        assert.equal(r.status, 401, call.path);
        assert.deepEqual(r.body, { status: 'Failure', message: 'Please sign in to continue.' }, call.path);
      }
      assert.equal((await t.ctx.db.selectFrom('money_requests').select('id').execute()).length, requestsBefore);
      assert.equal((await admin.get(ALL_GATEWAYS)).body.data.find((p: { id: number }) => p.id === gateway).isActive, '1');
    });

    test('an admin may not create or list a trader’s own requests (403)', async () => {
      const requestsBefore = (await t.ctx.db.selectFrom('money_requests').select('id').execute()).length;
      const dep = await admin.post(ADD_DEPOSIT, { depositAmount: '10', paymentAccount: '1', payment_getways_id: gateway });
      assert.equal(dep.status, 403);
      assert.deepEqual(dep.body, { status: 'Failure', message: 'This action is for trading accounts only.' });
      const wd = await admin.post(ADD_WITHDRAWAL, { withdrawalsAmount: '10', paymentAccount: '1' });
      assert.equal(wd.status, 403);
      assert.deepEqual(wd.body, { status: 'Failure', message: 'This action is for trading accounts only.' });
      for (const path of [OWN_DEPOSITS, OWN_WITHDRAWALS]) {
        const r = await admin.get(path);
        assert.equal(r.status, 403, path);
        assert.deepEqual(r.body, { status: 'Failure', message: 'This action is for trading accounts only.' });
      }
      assert.equal((await t.ctx.db.selectFrom('money_requests').select('id').execute()).length, requestsBefore);
      // The active accounts list is for any signed-in user.
      assert.equal((await admin.get(ACTIVE_GATEWAYS)).status, 200);
    });

    test('a trader only ever sees their own requests', async () => {
      const a = await signedInTrader(t);
      const b = await signedInTrader(t);
      await fund(a.client, admin, gateway, '100');
      await fund(b.client, admin, gateway, '100');
      const da = await a.client.post(ADD_DEPOSIT, { depositAmount: '1', paymentAccount: 'A', payment_getways_id: gateway });
      const db = await b.client.post(ADD_DEPOSIT, { depositAmount: '2', paymentAccount: 'B', payment_getways_id: gateway });
      const wa = await a.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '3', paymentAccount: 'A' });
      const wb = await b.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '4', paymentAccount: 'B' });

      const depsA = (await a.client.get(OWN_DEPOSITS)).body.data as { id: number; traders_id: number }[];
      assert.ok(depsA.every((d) => d.traders_id === a.id));
      assert.ok(depsA.some((d) => d.id === da.body.id));
      assert.ok(!depsA.some((d) => d.id === db.body.id));
      const wdsB = (await b.client.get(OWN_WITHDRAWALS)).body.data as { id: number; traders_id: number }[];
      assert.deepEqual(wdsB.map((w) => [w.id, w.traders_id]), [[wb.body.id, b.id]]);
      const wdsA = (await a.client.get(OWN_WITHDRAWALS)).body.data as { id: number; traders_id: number }[];
      assert.deepEqual(wdsA.map((w) => [w.id, w.traders_id]), [[wa.body.id, a.id]]);
      // The count in the database matches what each trader sees.
      assert.equal(depsA.length + wdsA.length, await countRequests(a.id));
    });
  });
});
