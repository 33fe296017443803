import { holds, type AddDepositRequest, type AddWithdrawalRequest, type BusEvent } from '@tradeport/contracts';
import { sql } from 'kysely';
import { formatCents, formatUsd, toCents, type Cents } from '../domain/money';
import type { Tx } from '../storage/db';
import { prepared, type Param } from '../storage/prepared';
import type { MoneyRequestKind, MoneyRequestStatus } from '../storage/schema';
import { recordActivity } from './activity';
import { recordAudit } from './audit';
import { inTransaction, type Actor, type ServiceContext } from './context';
import { refuse } from './errors';
import { runIdempotent } from './idempotency';
import { lockAccount, postToLedger } from './ledger';

/**
 * Deposit and withdrawal requests. Both live in one table (`money_requests`, by kind) so the admin
 * can list and filter them together; on the wire they keep the spec's separate shapes and names.
 * A request is created Pending ('0') and decided once: Approved ('1') posts to the ledger in the
 * same transaction, Rejected ('2') moves no money. The trader may cancel a pending request
 * ('3', also from '0' only); that moves no money either. The lists of requests (the trader's, the
 * back office's queues, filtered pages and exports) are in money-request-lists.ts.
 */

const usd = formatUsd;

function checkAmount(amount: string, maxCents: Cents, what: 'deposit' | 'withdrawal'): Cents {
  const cents = toCents(amount);
  if (cents > maxCents) throw refuse.invalid(`The maximum ${what} amount is ${usd(maxCents)}.`);
  return cents;
}

/** Funds a withdrawal may not take: margin held by the account's open positions (the trading engine adds it). */
async function reservedCents(ctx: ServiceContext, trx: Tx, accountId: number, leverage: number): Promise<Cents> {
  return ctx.reservedMargin ? ctx.reservedMargin(trx, accountId, leverage) : 0;
}

const leverageOf = prepared((db, param: Param<{ accountId: number }>) => db.selectFrom('trading_accounts').select('leverage').where('id', '=', param('accountId')));

/** `reservedCents` at the account's own leverage, read in the caller's transaction. */
async function withdrawalFloorOf(ctx: ServiceContext, trx: Tx, accountId: number): Promise<Cents> {
  const account = await leverageOf.first(trx, { accountId });
  if (!account) throw new Error(`trading account ${accountId} not found`);
  return reservedCents(ctx, trx, accountId, account.leverage);
}

/**
 * The live account a trader's deposit or withdrawal is for: the one the session acts on. Refused
 * when they hold none, and for a demo account, whose virtual money never meets real money.
 */
async function liveAccountOf(trx: Tx, actor: Actor, what: 'deposit' | 'withdrawal'): Promise<number> {
  const account = actor.accountId === null ? undefined : await trx.selectFrom('trading_accounts').select(['id', 'kind', 'state']).where('id', '=', actor.accountId).where('user_id', '=', actor.userId).executeTakeFirst();
  if (!account) throw refuse.invalid(`You have no trading account to make a ${what} for.`);
  if (account.kind !== 'live') throw refuse.invalid(`A demo account holds virtual money only: switch to a live account to request a ${what}.`);
  if (account.state === 'disabled') throw refuse.invalid(`This trading account is disabled: it can request no ${what}. Please contact support.`);
  return account.id;
}

export interface WithdrawableFunds {
  balanceCents: Cents;
  marginHeldCents: Cents;
  pendingCents: Cents;
  withdrawableCents: Cents;
}

/**
 * The one rule for what a new withdrawal may take: the balance, less the margin open positions
 * hold, less the withdrawals still pending (they stay in the balance until an admin pays them, but
 * are set aside so they cannot be requested twice). Trading is not held back by pending
 * withdrawals; the approval re-checks the funds instead.
 */
const fundsOf = prepared((db, param: Param<{ accountId: number }>) =>
  db
    .selectFrom('trading_accounts as a')
    .select([
      'a.balance_cents',
      'a.leverage',
      sql<number>`(select cast(coalesce(sum(r.amount_cents), 0) as bigint) from money_requests r where r.account_id = a.id and r.kind = 'withdrawal' and r.status = '0')`.as('pending_cents'),
    ])
    .where('a.id', '=', param('accountId')),
);

/** What a new withdrawal may take from the trading account `accountId`. */
export async function withdrawableFunds(ctx: ServiceContext, trx: Tx, accountId: number): Promise<WithdrawableFunds> {
  const account = await fundsOf.first(trx, { accountId });
  if (!account) throw new Error(`trading account ${accountId} not found`);
  const balanceCents = Number(account.balance_cents);
  const marginHeldCents = await reservedCents(ctx, trx, accountId, account.leverage);
  const pendingCents = Number(account.pending_cents);
  return { balanceCents, marginHeldCents, pendingCents, withdrawableCents: balanceCents - marginHeldCents - pendingCents };
}

/**
 * The trader's read of {@link withdrawableFunds} for the account the session acts on; never below
 * zero (a loss can leave less than is pending). A demo account has nothing to withdraw: its money is
 * virtual, and it says so rather than showing an amount.
 */
export async function getWithdrawable(ctx: ServiceContext, actor: Actor) {
  const funds = await inTransaction(ctx, async (trx) => withdrawableFunds(ctx, trx, await liveAccountOf(trx, actor, 'withdrawal')));
  return {
    status: 'success' as const,
    balance: formatCents(funds.balanceCents),
    marginHeld: formatCents(funds.marginHeldCents),
    pendingWithdrawals: formatCents(funds.pendingCents),
    withdrawable: formatCents(Math.max(0, funds.withdrawableCents)),
  };
}

export async function createDeposit(ctx: ServiceContext, actor: Actor, input: AddDepositRequest, idempotencyKey: string | undefined) {
  const cents = checkAmount(input.depositAmount, ctx.config.maxDepositCents, 'deposit');
  return runIdempotent(ctx, actor.userId, idempotencyKey, 'addDeposite', input, async (trx, emit) => {
    const gateway = await trx.selectFrom('payment_accounts').select(['id', 'is_active', 'name']).where('id', '=', input.payment_getways_id).executeTakeFirst();
    if (!gateway || gateway.is_active !== 1) throw refuse.invalid('Please select an active payment account.');
    const accountId = await liveAccountOf(trx, actor, 'deposit');
    const now = ctx.now();
    const row = await trx
      .insertInto('money_requests')
      .values({ kind: 'deposit', user_id: actor.userId, account_id: accountId, payment_account_id: gateway.id, account_ref: input.paymentAccount, amount_cents: cents, status: '0', created_at: now, decided_at: null, decided_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordActivity(trx, { userId: actor.userId, kind: 'deposit-requested', details: `Deposit request #${row.id} of ${usd(cents)} via ${gateway.name}`, status: 'Pending', ip: actor.ip, at: now });
    emit({ type: 'moneyRequest.created', requestId: row.id, kind: 'deposit', traderId: actor.userId, amount: formatCents(cents) });
    return { status: 'success' as const, message: 'Deposit request sent successfully. Please wait for admin approval.', id: row.id };
  });
}

export async function createWithdrawal(ctx: ServiceContext, actor: Actor, input: AddWithdrawalRequest, idempotencyKey: string | undefined) {
  const cents = checkAmount(input.withdrawalsAmount, ctx.config.maxWithdrawalCents, 'withdrawal');
  return runIdempotent(ctx, actor.userId, idempotencyKey, 'addWithdrawal', input, async (trx, emit) => {
    // Withdrawals from one account are checked one at a time, so simultaneous requests cannot all
    // see the same "nothing pending yet".
    const accountId = await liveAccountOf(trx, actor, 'withdrawal');
    await lockAccount(ctx, trx, accountId);
    const funds = await withdrawableFunds(ctx, trx, accountId);
    if (cents > funds.withdrawableCents) {
      throw refuse.invalid(`Insufficient available balance. You can withdraw at most ${usd(Math.max(0, funds.withdrawableCents))}${funds.pendingCents > 0 ? ' (pending withdrawals are already set aside)' : ''}.`);
    }
    const now = ctx.now();
    const row = await trx
      .insertInto('money_requests')
      .values({ kind: 'withdrawal', user_id: actor.userId, account_id: accountId, payment_account_id: null, account_ref: input.paymentAccount, amount_cents: cents, status: '0', created_at: now, decided_at: null, decided_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordActivity(trx, { userId: actor.userId, kind: 'withdrawal-requested', details: `Withdrawal request #${row.id} of ${usd(cents)} to ${input.paymentAccount}`, status: 'Pending', ip: actor.ip, at: now });
    emit({ type: 'moneyRequest.created', requestId: row.id, kind: 'withdrawal', traderId: actor.userId, amount: formatCents(cents) });
    return { status: 'success' as const, message: 'Withdrawal request sent successfully. Please wait for admin approval.', id: row.id };
  });
}

const STATUS_PAST: Record<MoneyRequestStatus, string> = { '0': 'left pending', '1': 'approved', '2': 'rejected', '3': 'cancelled' };

const kindLabel: Record<MoneyRequestKind, string> = { deposit: 'Deposit', withdrawal: 'Withdrawal' };

/**
 * Approve ('1') or reject ('2') a pending request, exactly once: the status moves only from '0'
 * in a guarded update, and the ledger posting happens in the same transaction. A concurrent second
 * decision finds no pending row and is refused; a withdrawal that is no longer covered by the
 * available balance is refused and stays pending. A rejection may carry a reason, which is stored
 * with the request and shown to the trader (in their lists, activity and notice).
 */
export async function decideRequest(ctx: ServiceContext, actor: Actor, kind: MoneyRequestKind, id: number, decision: '1' | '2', reason?: string, approval?: 'first' | 'final'): Promise<string> {
  const label = kindLabel[kind];
  if (reason !== undefined && decision !== '2') throw refuse.invalid('A reason is given only with a rejection (status 2).');
  const rejectReason = reason ?? null;
  return inTransaction(ctx, async (trx, emit) => {
    const now = ctx.now();
    let firstApprovedBy: number | null = null;
    if (kind === 'withdrawal') {
      // The trader's orders and withdrawals take the same account lock, so the funds an order needs
      // are counted before this withdrawal's floor is computed.
      const owner = await trx.selectFrom('money_requests').select('account_id').where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
      if (owner) await lockAccount(ctx, trx, owner.account_id);
      // Read under the lock: a concurrent decision on this request has finished by now.
      const request = await trx.selectFrom('money_requests').select(['status', 'amount_cents', 'first_approved_by', 'account_id', 'user_id']).where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
      if (request?.status === '0') {
        firstApprovedBy = request.first_approved_by;
        const twoNeeded = firstApprovedBy !== null || request.amount_cents > ctx.config.secondApprovalAboveCents;
        // An approval meant as the first must not pay because a colleague gave the first meanwhile.
        if (decision === '1' && approval === 'first' && firstApprovedBy !== null) throw refuse.conflict(`Withdrawal request #${id} has just had its first approval from someone else; review it again before completing it.`);
        if (decision === '1' && approval === 'final' && twoNeeded && firstApprovedBy === null) throw refuse.conflict(`Withdrawal request #${id} needs two approvals and has none yet; give the first approval.`);
        if (firstApprovedBy !== null) checkSecondApprover(actor, id, firstApprovedBy);
        else if (decision === '1' && twoNeeded) return giveFirstApproval(ctx, trx, emit, actor, id, request, now);
      }
    }
    const updated = await trx
      .updateTable('money_requests')
      .set({ status: decision, decided_at: now, decided_by: actor.userId, reject_reason: rejectReason })
      .where('id', '=', id)
      .where('kind', '=', kind)
      .where('status', '=', '0')
      // The decision was judged on this first approval (or none); it must still be the request's.
      .where('first_approved_by', firstApprovedBy === null ? 'is' : '=', firstApprovedBy)
      .returning(['user_id', 'account_id', 'amount_cents'])
      .executeTakeFirst();
    if (!updated) {
      const existing = await trx.selectFrom('money_requests').select(['status']).where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
      if (!existing) throw refuse.notFound(`${label} request #${id} was not found.`);
      throw refuse.conflict(`${label} request #${id} has already been ${STATUS_PAST[existing.status]}.`);
    }
    const { user_id: userId, account_id: accountId, amount_cents: cents } = updated;
    let balanceAfter: { balanceCents: Cents; creditCents: Cents } | null = null;
    if (decision === '1') {
      balanceAfter = await postToLedger(trx, {
        accountId,
        userId,
        kind,
        amountCents: kind === 'deposit' ? cents : -cents,
        refType: 'money_request',
        refId: id,
        memo: `${label} request #${id}`,
        at: now,
        ...(kind === 'withdrawal' ? { floorCents: await withdrawalFloorOf(ctx, trx, accountId) } : {}),
      });
      if (!balanceAfter) throw refuse.conflict(`Insufficient available balance to approve withdrawal request #${id}; it stays pending.`);
    }
    const verb = decision === '1' ? 'approved' : 'rejected';
    await recordAudit(trx, {
      actorId: actor.userId,
      action: `${kind}.${decision === '1' ? 'approve' : 'reject'}`,
      targetType: 'money_request',
      targetId: id,
      before: firstApprovedBy !== null ? { status: '0', firstApprovedBy } : { status: '0' },
      after: { status: decision, ...(balanceAfter ? { traderBalance: formatCents(balanceAfter.balanceCents) } : {}), ...(rejectReason !== null ? { reason: rejectReason } : {}) },
      ip: actor.ip,
      at: now,
    });
    await recordActivity(trx, {
      userId,
      kind: `${kind}-${verb}`,
      details: `${label} request #${id} of ${usd(cents)} ${verb}${rejectReason !== null ? `: ${rejectReason}` : ''}`,
      status: decision === '1' ? 'Approved' : 'Rejected',
      ip: actor.ip,
      at: now,
    });
    emit({ type: 'moneyRequest.updated', userId, accountId, requestId: id, kind, status: decision, amount: formatCents(cents), ...(rejectReason !== null ? { reason: rejectReason } : {}) });
    emit({ type: 'moneyRequest.decided', requestId: id, kind, traderId: userId, status: decision, decidedBy: actor.userId });
    if (balanceAfter) emit({ type: 'balance.changed', userId, accountId, balance: formatCents(balanceAfter.balanceCents), credit: formatCents(balanceAfter.creditCents), reason: `${kind}-approved` });
    return `${label} request #${id} ${verb} successfully`;
  });
}

/**
 * Four-eyes approval (docs/design.md#four-eyes-approval): a withdrawal with a first approval is
 * completed or rejected only by a Finance member who did not give it.
 */
function checkSecondApprover(actor: Actor, id: number, firstApprovedBy: number): void {
  if (actor.userId === firstApprovedBy) throw refuse.forbidden(`You gave the first approval of withdrawal request #${id}; the second must come from another Finance member.`);
  if (!holds(actor.staffRoles, 'money.second-approval')) throw refuse.forbidden(`Withdrawal request #${id} awaits a second approval, which needs the Finance role.`);
}

/**
 * The first of two approvals of a withdrawal above the second-approval amount: recorded, audited
 * and announced to the back office, exactly once (guarded as a decision is). No money moves and the
 * trader still sees the request pending. The funds are checked now, so a request that could not be
 * paid is not passed on; the second approval checks them again.
 */
async function giveFirstApproval(ctx: ServiceContext, trx: Tx, emit: (e: BusEvent) => void, actor: Actor, id: number, request: { amount_cents: number; account_id: number; user_id: number }, now: number): Promise<string> {
  const account = await trx.selectFrom('trading_accounts').select('balance_cents').where('id', '=', request.account_id).executeTakeFirstOrThrow();
  if (Number(account.balance_cents) - request.amount_cents < (await withdrawalFloorOf(ctx, trx, request.account_id))) throw refuse.conflict(`Insufficient available balance to approve withdrawal request #${id}; it stays pending.`);
  const marked = await trx
    .updateTable('money_requests')
    .set({ first_approved_by: actor.userId, first_approved_at: now })
    .where('id', '=', id)
    .where('status', '=', '0')
    .where('first_approved_by', 'is', null)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) throw refuse.conflict(`Withdrawal request #${id} has already been decided.`);
  await recordAudit(trx, { actorId: actor.userId, action: 'withdrawal.firstApprove', targetType: 'money_request', targetId: id, before: { status: '0' }, after: { status: '0', awaiting: 'second approval' }, ip: actor.ip, at: now });
  emit({ type: 'moneyRequest.firstApproved', requestId: id, kind: 'withdrawal', traderId: request.user_id, approvedBy: actor.userId });
  return `Withdrawal request #${id} has its first approval; another Finance member must now complete or reject it.`;
}

/**
 * The trader takes back an own pending request ('0' → '3'), exactly once: the same guarded update
 * as an admin decision, so a concurrent cancel or decision finds no pending row and is refused.
 * Nothing is posted to the ledger; a withdrawal's set-aside amount is simply free again.
 * Another trader's request answers "not found", as if it did not exist.
 */
export async function cancelRequest(ctx: ServiceContext, actor: Actor, id: number): Promise<string> {
  return inTransaction(ctx, async (trx, emit) => {
    const now = ctx.now();
    // A withdrawal's cancel takes the account lock first, as a new withdrawal and its decision do,
    // so the set-aside total changes one step at a time. A deposit's does not: its approval locks
    // the request row before the account, and taking them the other way round could deadlock.
    const target = await trx.selectFrom('money_requests').select(['kind', 'account_id']).where('id', '=', id).where('user_id', '=', actor.userId).executeTakeFirst();
    if (target?.kind === 'withdrawal') await lockAccount(ctx, trx, target.account_id);
    const updated = await trx
      .updateTable('money_requests')
      .set({ status: '3', decided_at: now, decided_by: actor.userId })
      .where('id', '=', id)
      .where('user_id', '=', actor.userId)
      .where('status', '=', '0')
      .returning(['kind', 'account_id', 'amount_cents'])
      .executeTakeFirst();
    if (!updated) {
      const existing = await trx.selectFrom('money_requests').select(['status', 'kind']).where('id', '=', id).where('user_id', '=', actor.userId).executeTakeFirst();
      if (!existing) throw refuse.notFound(`Request #${id} was not found.`);
      throw refuse.conflict(`${kindLabel[existing.kind]} request #${id} has already been ${STATUS_PAST[existing.status]}; only a pending request can be cancelled.`);
    }
    const { kind, account_id: accountId, amount_cents: cents } = updated;
    const label = kindLabel[kind];
    await recordAudit(trx, {
      actorId: actor.userId,
      action: `${kind}.cancel`,
      targetType: 'money_request',
      targetId: id,
      before: { status: '0' },
      after: { status: '3' },
      ip: actor.ip,
      at: now,
    });
    await recordActivity(trx, { userId: actor.userId, kind: `${kind}-cancelled`, details: `${label} request #${id} of ${usd(cents)} cancelled`, status: 'Cancelled', ip: actor.ip, at: now });
    emit({ type: 'moneyRequest.updated', userId: actor.userId, accountId, requestId: id, kind, status: '3', amount: formatCents(cents) });
    emit({ type: 'moneyRequest.cancelled', requestId: id, kind, traderId: actor.userId });
    return `${label} request #${id} cancelled.`;
  });
}
