import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { formatCents, MAX_SAFE_CENTS, toCents } from '../src/domain/money';
import { findLedgerMismatches } from '../src/services/ledger';
import { startApp, type TestApp } from './helpers/app';
import { fund, paymentAccount, signedInAdmin, signedInTrader, type Client } from './helpers/client';

/** What the test client answers (its body is loosely typed on purpose). */
type AnyReply = Awaited<ReturnType<Client['get']>>;

/**
 * docs/design.md#money-is-exact-and-ledgered and #exactly-once, checked as a property over the real
 * HTTP API: random sequences of deposit and withdrawal requests and of admin decisions (repeated and
 * fired concurrently) must leave every balance equal to the sum of its ledger entries and to
 * approved deposits minus approved withdrawals, with no refusal ever answered by a 5xx.
 */

// ---------------------------------------------------------------- commands

type Decision = 1 | 2;
type Command =
  | { type: 'deposit'; trader: number; cents: number }
  /** `share` (percent of the then available balance, up to 110 %) when set, else `cents`. */
  | { type: 'withdraw'; trader: number; cents: number; share: number | null }
  | { type: 'decide'; pick: number; decision: Decision }
  | { type: 'concurrent'; pick: number; decisions: Decision[] }
  | { type: 'wrong-kind'; pick: number; decision: Decision };

const decisionArb = fc.constantFrom<Decision>(1, 2);
const centsArb = fc.integer({ min: 1, max: 1_000_000 });
// Withdrawals are either a fixed amount (mostly uncovered) or a share of what is then available
// (covered up to 100 %, just over it above), so that accepted and refused ones both occur often.
const shareArb = fc.option(fc.integer({ min: 1, max: 110 }), { freq: 4, nil: null });

const commandArb = (traders: number): fc.Arbitrary<Command> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ type: fc.constant('deposit' as const), trader: fc.nat({ max: traders - 1 }), cents: centsArb }) },
    { weight: 3, arbitrary: fc.record({ type: fc.constant('withdraw' as const), trader: fc.nat({ max: traders - 1 }), cents: centsArb, share: shareArb }) },
    { weight: 5, arbitrary: fc.record({ type: fc.constant('decide' as const), pick: fc.nat(), decision: decisionArb }) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        // The same decision fired 2–5 times at once…
        fc.tuple(fc.nat(), decisionArb, fc.integer({ min: 2, max: 5 })).map(([pick, d, n]): Command => ({ type: 'concurrent', pick, decisions: Array.from({ length: n }, () => d) })),
        // …and, less often, approvals and rejections racing each other.
        fc.record({ type: fc.constant('concurrent' as const), pick: fc.nat(), decisions: fc.array(decisionArb, { minLength: 2, maxLength: 5 }) }),
      ),
    },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('wrong-kind' as const), pick: fc.nat(), decision: decisionArb }) },
  );

const scenarioArb = fc.integer({ min: 2, max: 3 }).chain((traders) => fc.record({ traders: fc.constant(traders), commands: fc.array(commandArb(traders), { minLength: 5, maxLength: 25, size: 'max' }) }));

// ---------------------------------------------------------------- model

type Kind = 'deposit' | 'withdrawal';
type Status = '0' | '1' | '2';
interface ModelRequest {
  id: number;
  kind: Kind;
  trader: number;
  cents: number;
  status: Status;
}

const label = (k: Kind) => (k === 'deposit' ? 'Deposit' : 'Withdrawal');
const verb = (s: Status) => (s === '1' ? 'approved' : 'rejected');
const render = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const usd = (cents: number) => `${formatCents(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} USD`;

const decidePath = (k: Kind) => (k === 'deposit' ? '/dashboard/admin/editStatusDeposite.php' : '/dashboard/admin/editStatusWithdrawal.php');
const decideBody = (k: Kind, id: number, decision: Decision) => (k === 'deposit' ? { deposites_id: id, status: decision } : { withdrawals_id: id, status: decision });

/** Every answer is either a success or a 4xx refusal in the spec's shape; never a 5xx. */
function assertAnswer(r: AnyReply, what: string): void {
  assert.ok(r.status < 500, `${what}: got ${r.status} ${JSON.stringify(r.body)}`);
  if (r.status >= 400) {
    assert.ok(r.status >= 400 && r.status < 500, `${what}: status ${r.status}`);
    assert.equal(r.body.status, 'Failure', `${what}: refusal shape ${JSON.stringify(r.body)}`);
    assert.equal(typeof r.body.message, 'string');
    assert.ok(r.body.message.length > 0, `${what}: empty message`);
  }
}

// ---------------------------------------------------------------- the property

describe('ledger invariants under random money traffic (property)', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  const allTraderIds: number[] = [];
  const seen = { deposits: 0, withdrawals: 0, refusedWithdrawals: 0, approved: 0, rejected: 0, repeats: 0, racesOnPending: 0, wrongKind: 0 };

  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000 } });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin, 'Property bank');
  });
  after(() => t.close());

  async function runScenario(scenario: { traders: number; commands: Command[] }): Promise<void> {
    const traders = await Promise.all(Array.from({ length: scenario.traders }, () => signedInTrader(t)));
    allTraderIds.push(...traders.map((x) => x.id));
    const balance = traders.map(() => 0);
    const requests: ModelRequest[] = [];
    const pendingWithdrawals = (trader: number) => requests.filter((r) => r.trader === trader && r.kind === 'withdrawal' && r.status === '0').reduce((s, r) => s + r.cents, 0);
    const pick = (n: number) => (requests.length === 0 ? null : requests[n % requests.length]!);

    for (const [step, cmd] of scenario.commands.entries()) {
      const what = `step ${step} ${JSON.stringify(cmd)}`;
      switch (cmd.type) {
        case 'deposit': {
          const r = await traders[cmd.trader]!.client.post('/platform/addDeposite.php', { depositAmount: render(cmd.cents), paymentAccount: `ACC-${cmd.trader}`, payment_getways_id: gateway });
          assertAnswer(r, what);
          assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
          assert.equal(r.body.status, 'success');
          requests.push({ id: r.body.id as number, kind: 'deposit', trader: cmd.trader, cents: cmd.cents, status: '0' });
          seen.deposits++;
          break;
        }
        case 'withdraw': {
          const available = balance[cmd.trader]! - pendingWithdrawals(cmd.trader);
          const cents = cmd.share === null ? cmd.cents : Math.min(1_000_000, Math.max(1, Math.floor((available * cmd.share) / 100)));
          const r = await traders[cmd.trader]!.client.post('/platform/addWithdrawal.php', { withdrawalsAmount: render(cents), paymentAccount: `IBAN-${cmd.trader}` });
          assertAnswer(r, what);
          if (cents <= available) {
            assert.equal(r.status, 200, `${what}: ${cents} of available ${available}, ${JSON.stringify(r.body)}`);
            requests.push({ id: r.body.id as number, kind: 'withdrawal', trader: cmd.trader, cents, status: '0' });
            seen.withdrawals++;
          } else {
            seen.refusedWithdrawals++;
            assert.equal(r.status, 400, `${what}: ${cents} of available ${available} accepted`);
            assert.match(r.body.message, /^Insufficient available balance\. You can withdraw at most /);
            assert.ok(r.body.message.includes(usd(Math.max(0, available))), `${what}: ${r.body.message}`);
          }
          break;
        }
        case 'decide': {
          const req = pick(cmd.pick);
          if (!req) {
            const r = await admin.post(decidePath('deposit'), decideBody('deposit', 2_000_000_000, cmd.decision));
            assertAnswer(r, what);
            assert.equal(r.status, 404);
            break;
          }
          const r = await admin.post(decidePath(req.kind), decideBody(req.kind, req.id, cmd.decision));
          assertAnswer(r, what);
          if (req.status !== '0') {
            seen.repeats++;
            assert.equal(r.status, 409, what);
            assert.equal(r.body.message, `${label(req.kind)} request #${req.id} has already been ${verb(req.status)}.`);
          } else if (cmd.decision === 1 && req.kind === 'withdrawal' && balance[req.trader]! < req.cents) {
            assert.equal(r.status, 409, what);
            assert.equal(r.body.message, `Insufficient available balance to approve withdrawal request #${req.id}; it stays pending.`);
          } else {
            assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
            req.status = cmd.decision === 1 ? '1' : '2';
            assert.equal(r.body.message, `${label(req.kind)} request #${req.id} ${verb(req.status)} successfully`);
            if (req.status === '1') balance[req.trader]! += req.kind === 'deposit' ? req.cents : -req.cents;
            seen[req.status === '1' ? 'approved' : 'rejected']++;
          }
          break;
        }
        case 'concurrent': {
          const req = pick(cmd.pick);
          if (!req) break;
          const wasPending = req.status === '0';
          seen[wasPending ? 'racesOnPending' : 'repeats']++;
          const replies = await Promise.all(cmd.decisions.map((d) => admin.post(decidePath(req.kind), decideBody(req.kind, req.id, d))));
          replies.forEach((r, i) => assertAnswer(r, `${what} #${i}`));
          const winners = replies.map((r, i) => ({ r, d: cmd.decisions[i]! })).filter((x) => x.r.status === 200);
          assert.ok(winners.length <= 1, `${what}: ${winners.length} decisions succeeded`);
          if (!wasPending) {
            assert.equal(winners.length, 0, `${what}: a decided request was decided again`);
          } else if (winners.length === 1) {
            req.status = winners[0]!.d === 1 ? '1' : '2';
            if (req.status === '1') balance[req.trader]! += req.kind === 'deposit' ? req.cents : -req.cents;
            seen[req.status === '1' ? 'approved' : 'rejected']++;
          } else {
            // Nobody won: only possible when every attempt was an approval of an uncovered withdrawal.
            assert.ok(req.kind === 'withdrawal' && cmd.decisions.every((d) => d === 1) && balance[req.trader]! < req.cents, `${what}: no decision succeeded on a pending request`);
          }
          for (const r of replies.filter((x) => x.status !== 200)) {
            assert.equal(r.status, 409, what);
            const allowed = [`${label(req.kind)} request #${req.id} has already been ${verb(req.status === '0' ? '1' : req.status)}.`];
            if (req.kind === 'withdrawal') allowed.push(`Insufficient available balance to approve withdrawal request #${req.id}; it stays pending.`);
            assert.ok(allowed.includes(r.body.message), `${what}: unexpected refusal ${r.body.message}`);
          }
          break;
        }
        case 'wrong-kind': {
          const req = pick(cmd.pick);
          if (!req) break;
          // A deposit id sent to the withdrawal call (and vice versa) names no such request.
          const other: Kind = req.kind === 'deposit' ? 'withdrawal' : 'deposit';
          const r = await admin.post(decidePath(other), decideBody(other, req.id, cmd.decision));
          assertAnswer(r, what);
          seen.wrongKind++;
          assert.equal(r.status, 404, `${what}: ${JSON.stringify(r.body)}`);
          assert.equal(r.body.message, `${label(other)} request #${req.id} was not found.`);
          break;
        }
      }
    }

    // ------------------------------------------------ invariants after the run
    const db = t.ctx.db;
    const ids = traders.map((x) => x.id);
    // Each trader's live account (the one sign-up opened, and the only one they hold here).
    const accounts = await db.selectFrom('trading_accounts').select(['user_id', 'balance_cents', 'credit_cents']).where('user_id', 'in', ids).where('kind', '=', 'live').orderBy('id').execute();
    const entries = await db.selectFrom('ledger_entries').selectAll().where('user_id', 'in', ids).orderBy('id').execute();
    const rows = await db.selectFrom('money_requests').select(['id', 'kind', 'user_id', 'amount_cents', 'status']).where('user_id', 'in', ids).orderBy('id').execute();
    const traderRows = (await admin.get('/dashboard/admin/getTraders.php')).body.data as { id: number; balance: string; totalDeposite: string; totalWithdrawals: string }[];

    // The database holds exactly the model's requests, in the model's states.
    assert.deepEqual(
      rows.map((r) => ({ id: r.id, kind: r.kind, user_id: r.user_id, amount_cents: Number(r.amount_cents), status: r.status })),
      requests.map((r) => ({ id: r.id, kind: r.kind, user_id: ids[r.trader], amount_cents: r.cents, status: r.status })),
    );

    for (const [i, trader] of traders.entries()) {
      const mine = requests.filter((r) => r.trader === i);
      const approvedDeposits = mine.filter((r) => r.kind === 'deposit' && r.status === '1').reduce((s, r) => s + r.cents, 0);
      const approvedWithdrawals = mine.filter((r) => r.kind === 'withdrawal' && r.status === '1').reduce((s, r) => s + r.cents, 0);
      const expected = approvedDeposits - approvedWithdrawals;
      assert.equal(balance[i], expected, 'model bookkeeping');

      const tableDeposits = rows.filter((r) => r.user_id === trader.id && r.kind === 'deposit' && r.status === '1').reduce((s, r) => s + Number(r.amount_cents), 0);
      const tableWithdrawals = rows.filter((r) => r.user_id === trader.id && r.kind === 'withdrawal' && r.status === '1').reduce((s, r) => s + Number(r.amount_cents), 0);
      assert.equal(tableDeposits - tableWithdrawals, expected, `trader ${i}: approved requests in money_requests`);

      const account = accounts.find((a) => a.user_id === trader.id)!;
      assert.equal(Number(account.balance_cents), expected, `trader ${i}: trading_accounts.balance_cents`);
      assert.equal(Number(account.credit_cents), 0);
      assert.ok(Number(account.balance_cents) >= 0, `trader ${i}: negative balance`);

      const mineEntries = entries.filter((e) => e.user_id === trader.id);
      assert.equal(mineEntries.reduce((s, e) => s + Number(e.amount_cents), 0), expected, `trader ${i}: sum of ledger entries`);
      // One entry per approved request, pointing at it, with a running balance that adds up.
      const approved = mine.filter((r) => r.status === '1');
      assert.deepEqual(
        mineEntries.map((e) => ({ kind: e.kind, ref_type: e.ref_type, ref_id: e.ref_id, amount: Number(e.amount_cents) })).sort((a, b) => Number(a.ref_id) - Number(b.ref_id)),
        approved.map((r) => ({ kind: r.kind, ref_type: 'money_request', ref_id: String(r.id), amount: r.kind === 'deposit' ? r.cents : -r.cents })).sort((a, b) => Number(a.ref_id) - Number(b.ref_id)),
        `trader ${i}: ledger entries`,
      );
      let running = 0;
      for (const e of mineEntries) {
        running += Number(e.amount_cents);
        assert.equal(Number(e.balance_after_cents), running, `trader ${i}: balance_after_cents of entry ${e.id}`);
        assert.ok(running >= 0, `trader ${i}: balance went negative at entry ${e.id}`);
      }

      const profile = (await trader.client.get('/dashboard/customer/getProfileDetails.php')).body.data[0];
      assert.equal(profile.totalBalance, formatCents(expected), `trader ${i}: totalBalance`);
      assert.equal(profile.totalDeposite, formatCents(approvedDeposits), `trader ${i}: totalDeposite`);
      assert.equal(profile.totalWithdrawals, formatCents(approvedWithdrawals), `trader ${i}: totalWithdrawals`);
      assert.equal(profile.totalCredit, '0.00');

      const row = traderRows.find((x) => x.id === trader.id)!;
      assert.deepEqual({ balance: row.balance, totalDeposite: row.totalDeposite, totalWithdrawals: row.totalWithdrawals }, { balance: formatCents(expected), totalDeposite: formatCents(approvedDeposits), totalWithdrawals: formatCents(approvedWithdrawals) });

      const deposits = (await trader.client.get('/platform/getTraderDeposites.php')).body.data as { id: number; status: string; depositAmount: string }[];
      const withdrawals = (await trader.client.get('/platform/getTraderWithdrawals.php')).body.data as { id: number; status: string; withdrawalsAmount: string }[];
      assert.deepEqual(
        deposits.map((d) => [d.id, d.status, d.depositAmount]),
        mine.filter((r) => r.kind === 'deposit').reverse().map((r) => [r.id, r.status, formatCents(r.cents)]),
      );
      assert.deepEqual(
        withdrawals.map((d) => [d.id, d.status, d.withdrawalsAmount]),
        mine.filter((r) => r.kind === 'withdrawal').reverse().map((r) => [r.id, r.status, formatCents(r.cents)]),
      );
    }
    assert.deepEqual(await findLedgerMismatches(db), []);
  }

  test('every balance equals its ledger and its approved requests after random deposits, withdrawals and (concurrent, repeated) decisions', async (ctx) => {
    await fc.assert(fc.asyncProperty(scenarioArb, runScenario), { numRuns: 25 });
    ctx.diagnostic(`commands exercised: ${JSON.stringify(seen)}`);
    // The generators must actually reach the interesting cases, or the property proves little.
    assert.ok(seen.approved > 0 && seen.rejected > 0 && seen.repeats > 0 && seen.racesOnPending > 0 && seen.withdrawals > 0, JSON.stringify(seen));
    const negative = await t.ctx.db.selectFrom('trading_accounts').select(['id', 'balance_cents']).where('balance_cents', '<', 0).execute();
    assert.deepEqual(negative, []);
    assert.ok(allTraderIds.length >= 50);
  });

  test('simultaneous withdrawal requests never set aside more than the available balance', async () => {
    // Each request is checked against balance − pending withdrawals; firing them together must not
    // let more through than one at a time would (the check and the insert must not interleave).
    // Several rounds, so that the database pool is warm and the requests really overlap.
    const problems: string[] = [];
    for (let round = 0; round < 10; round++) {
      const { client: trader, id } = await signedInTrader(t);
      await fund(trader, admin, gateway, '100.00');
      const replies = await Promise.all(Array.from({ length: 20 }, () => trader.post('/platform/addWithdrawal.php', { withdrawalsAmount: '60.00', paymentAccount: 'IBAN race' })));
      replies.forEach((r, i) => assertAnswer(r, `round ${round} request ${i}`));
      for (const r of replies.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 400);
        assert.match(r.body.message, /^Insufficient available balance\./);
      }
      const pending = await t.ctx.db.selectFrom('money_requests').select(['amount_cents']).where('user_id', '=', id).where('kind', '=', 'withdrawal').where('status', '=', '0').execute();
      const reserved = pending.reduce((s, r) => s + Number(r.amount_cents), 0);
      const accepted = replies.filter((r) => r.status === 200).length;
      if (accepted !== 1 || reserved > 10_000) problems.push(`round ${round}: ${accepted} of 20 accepted, ${formatCents(reserved)} pending against a balance of 100.00`);
    }
    assert.deepEqual(problems, []);
  });
});

// ---------------------------------------------------------------- pure money conversions

describe('money conversions (property)', () => {
  const safeCents = fc.integer({ min: -MAX_SAFE_CENTS, max: MAX_SAFE_CENTS });

  test('formatCents then toCents gives back the same integer cents, for any safe amount', () => {
    fc.assert(
      fc.property(safeCents, (cents) => {
        const text = formatCents(cents);
        assert.match(text, /^-?\d+\.\d{2}$/);
        assert.equal(toCents(text), cents);
        assert.equal(formatCents(BigInt(cents)), text);
        assert.equal(formatCents(String(cents)), text);
      }),
      { numRuns: 2000 },
    );
  });

  test('toCents reads any decimal with up to two fraction digits exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 90_071_992_547_408n }), fc.constantFrom('', '.d', '.dd'), fc.nat({ max: 99 }), fc.boolean(), (units, shape, fraction, negative) => {
        const digits = String(fraction).padStart(2, '0');
        const frac = shape === '' ? '' : shape === '.d' ? `.${digits[0]}` : `.${digits}`;
        const text = `${negative ? '-' : ''}${units}${frac}`;
        const expected = (units * 100n + (shape === '' ? 0n : shape === '.d' ? BigInt(digits[0]!) * 10n : BigInt(digits))) * (negative ? -1n : 1n);
        assert.equal(toCents(text) + 0, Number(expected)); // + 0 folds -0 into 0
      }),
      { numRuns: 2000 },
    );
  });

  test('toCents refuses amounts with three or more decimals', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000_000 }), fc.stringMatching(/^\d{3,6}$/), fc.boolean(), (units, fraction, negative) => {
        const text = `${negative ? '-' : ''}${units}.${fraction}`;
        assert.throws(() => toCents(text), RangeError, text);
      }),
      { numRuns: 1000 },
    );
  });

  test('toCents refuses anything that is not a plain decimal, and amounts beyond the safe range', () => {
    for (const bad of ['', ' ', '1.', '.5', '1,00', '1e3', '+1', '0x10', 'NaN', 'Infinity', '1.2.3', ' 1.00', '1.00 ', '--1', '١٢']) {
      assert.throws(() => toCents(bad), RangeError, JSON.stringify(bad));
    }
    assert.throws(() => toCents('90071992547409.92'), RangeError);
    assert.equal(toCents('90071992547409.91'), MAX_SAFE_CENTS);
  });
});
