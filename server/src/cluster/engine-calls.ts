import { calls, type CallDefinition } from '@tradeport/contracts';
import type { FastifyReply } from 'fastify';

/**
 * Which calls run on the engine leader, and what a client is told when one cannot run now: the
 * refusals of forwarding (forwarding.ts, leader-call.ts) and of the leader itself, each in the
 * spec's shape, retryable ones with Retry-After (docs/architecture.md, "Several instances").
 */

/**
 * The calls that need the running engine: every order-changing call (orders, closes, SL/TP,
 * pending orders, price alerts, an administrator's close, ticks pushed by the price bridge), the reads
 * answered from the engine's memory (open positions, the broker's exposure, account figures, working orders, the lists of
 * trading accounts, and the answers of opening an account or setting its state or type, which
 * show its figures; a type's move also checks the margin level at the new leverage, and a type's
 * change reaches the margin sweep at once), a demo account's reset (it closes positions), and the calls that
 * value open positions to keep a withdrawal from taking what they need (a withdrawal request, its
 * approval, the trader's read of what is withdrawable, and a transfer between accounts): at the leader's prices, which a follower's relayed ones trail — by a relay's
 * turn, or by as long as Redis is away. Anywhere but on the engine leader they are forwarded to it.
 */
export const ENGINE_CALLS: ReadonlySet<CallDefinition> = new Set<CallDefinition>([
  calls.addTrades,
  calls.updateTrades,
  calls.closePartTrade,
  calls.modifyTrades,
  calls.addPendingOrder,
  calls.modifyPendingOrder,
  calls.cancelPendingOrder,
  calls.addAlert,
  calls.modifyAlert,
  calls.deleteAlert,
  calls.editStatusTrades,
  calls.modifyTraderOrder,
  calls.cancelTraderOrder,
  calls.feedTicks,
  calls.addWithdrawal,
  calls.getWithdrawable,
  calls.editStatusWithdrawal,
  calls.getTrades,
  calls.getMargins,
  calls.getPendingOrders,
  calls.getOpenTrades,
  calls.getExposure,
  calls.getTraderDetails,
  calls.getWithdrawalRisk,
  calls.getAccounts,
  calls.getTraderAccounts,
  calls.openAccount,
  calls.setAccountState,
  calls.setAccountType,
  calls.saveAccountType,
  calls.resetDemoAccount,
  calls.adminResetDemoAccount,
  calls.transferFunds,
]);

/** What a refused client is told to wait, in seconds: about one turn of the lock's polling. */
export const RETRY_AFTER_SECONDS = 2;

export const ENGINE_MOVING = 'The trading engine is moving to another server; nothing was done. Please try again in a moment.';
export const LEADER_UNKNOWN = 'The trading engine could not be located just now (the database is slow to answer); nothing was done. Please try again in a moment.';
/**
 * A follower cut off from Redis (the bus that brings it the leader's quotes and the account events
 * of fills and closes) refuses what would change orders or money: its trader would act on prices
 * that stopped moving and never see the outcome. Reads are still served.
 */
export const BUS_DOWN =
  'Trading is briefly unavailable on this server (it has lost its link to the live prices); nothing was done. Please try again in a moment.';
export const OUTCOME_UNKNOWN =
  'The trading server stopped answering while this request was under way, so it may or may not have been carried out. Check your positions and orders, or send it again with the same Idempotency-Key, which is safe.';

/**
 * A genuine forwarded call the leader did not take because its time is too far from the leader's
 * clock (the instances' clocks differ): signed by the leader, passed on by the follower.
 */
export const CLOCKS_DIFFER =
  'The trading engine could not take this call from this server just now (their clocks differ); nothing was done. Please try again in a moment.';
/**
 * The leader publishes which cluster secret it signs with (leader-address.ts): a follower with
 * another one sends it nothing, since the leader would refuse everything it sent.
 */
export const OTHER_SECRET =
  'The trading engine runs on a server set up with another cluster secret, so this server cannot pass calls to it; nothing was done. Please try again in a moment.';
export const FORGED_CALL = 'This call claims to come from another Tradeport server but is not signed by one; nothing was done.';

/** Answers 503 with Retry-After in the spec's shape: the client may try again, nothing is lost. */
export function sendRetryable(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ status: 'Failure', message });
}
