import { calls, type CallDefinition } from '@tradeport/contracts';
import type { Metrics, OrderKind, OrderOutcome } from '../../metrics';
import { Refusal } from '../../services/errors';
import { EngineUnavailable, type TradingEngine } from '../../trading/engine';
import type { CallHandler, CallInput } from './call-types';

/**
 * The order calls' handlers, counted, timed and logged (docs/operations.md, "Metrics" and "Logs"):
 * each order call's outcome goes to the metrics (`Metrics.orderCall`), and one log line names its
 * kind, outcome, ticket or order number, user, symbol and time from the request received to the
 * commit. It wraps the handler on the instance that carries the call out, so a call a follower
 * forwards to the engine leader is counted once, there. Calls refused before they reach it (not
 * signed in, over the rate limit, a malformed body) show in the HTTP metrics only.
 */

/** What an order's log line names. */
interface OrderFacts {
  /** The account's owner (for an administrator's close, the trader; `by` is the administrator). */
  userId: number;
  symbol: string | null;
  /** The position's ticket (market orders: once opened). */
  ticket?: number;
  /** The pending order's number (placed orders: once placed). */
  orderId?: number;
  by?: number;
}

interface OrderCall<C extends CallDefinition> {
  kind: OrderKind;
  /** What is known before the call runs (a position or order it names is still in the engine then). */
  before(input: CallInput<C>, engine: TradingEngine | null): OrderFacts;
  /** What its answer adds: the new ticket or order number. */
  after?(answer: unknown): Partial<OrderFacts>;
}

const orderCall = <C extends CallDefinition>(call: C, how: OrderCall<C>): [CallDefinition, OrderCall<CallDefinition>] => [call, how as unknown as OrderCall<CallDefinition>];
const numberIn = (answer: unknown, key: string): number | undefined => {
  const value = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' ? value : undefined;
};

/** The calls that place, change, cancel or close orders, and what each one's log line names. */
const ORDER_CALLS = new Map<CallDefinition, OrderCall<CallDefinition>>([
  orderCall(calls.addTrades, { kind: 'market', before: ({ body, actor }) => ({ userId: actor.userId, symbol: body.fullSymbol }), after: (answer) => ({ ticket: numberIn(answer, 'ticket') }) }),
  orderCall(calls.addPendingOrder, { kind: 'pending', before: ({ body, actor }) => ({ userId: actor.userId, symbol: body.fullSymbol }), after: (answer) => ({ orderId: numberIn(answer, 'orderId') }) }),
  orderCall(calls.modifyTrades, { kind: 'modify', before: ({ body, actor }, engine) => ({ userId: actor.userId, ticket: body.ticket, symbol: engine?.get(body.ticket)?.symbol ?? null }) }),
  orderCall(calls.modifyPendingOrder, { kind: 'modify', before: ({ body, actor }, engine) => ({ userId: actor.userId, orderId: body.orderId, symbol: engine?.pendingOrder(body.orderId)?.symbol ?? null }) }),
  orderCall(calls.cancelPendingOrder, { kind: 'cancel', before: ({ body, actor }, engine) => ({ userId: actor.userId, orderId: body.orderId, symbol: engine?.pendingOrder(body.orderId)?.symbol ?? null }) }),
  orderCall(calls.updateTrades, { kind: 'close', before: ({ body, actor }, engine) => ({ userId: actor.userId, ticket: body.ticket, symbol: engine?.get(body.ticket)?.symbol ?? null }) }),
  orderCall(calls.closePartTrade, { kind: 'close', before: ({ body, actor }, engine) => ({ userId: actor.userId, ticket: body.ticket, symbol: engine?.get(body.ticket)?.symbol ?? null }) }),
  orderCall(calls.editStatusTrades, { kind: 'close', before: ({ body, actor }, engine) => ({ userId: body.traders_id, by: actor.userId, ticket: body.ticket, symbol: engine?.get(body.ticket)?.symbol ?? null }) }),
]);

function outcomeOf(err: unknown): OrderOutcome {
  if (err instanceof Refusal) return 'refused';
  if (err instanceof EngineUnavailable) return 'unavailable';
  return 'failed';
}

/** An order call's handler, counted, timed and logged; any other call's handler as it is. */
export function instrumentOrderCall<C extends CallDefinition>(metrics: Metrics, engine: () => TradingEngine | null, call: C, handler: CallHandler<C>): CallHandler<C> {
  const how = ORDER_CALLS.get(call);
  if (!how) return handler;
  const done = (input: CallInput<C>, outcome: OrderOutcome, facts: OrderFacts, err: unknown) => {
    const ms = input.reply.elapsedTime;
    metrics.orderCall(how.kind, outcome, ms / 1000);
    // A refusal's message is written for the trader and names nothing secret; other errors are logged in full by the error handler.
    const reason = err instanceof Refusal || err instanceof EngineUnavailable ? err.message : undefined;
    input.request.log.info({ order: how.kind, outcome, ...facts, ms: Math.round(ms * 100) / 100, reason }, `order ${outcome}`);
  };
  return async (input) => {
    const facts = how.before(input as CallInput<CallDefinition>, engine());
    try {
      const answer = await handler(input);
      done(input, 'accepted', { ...facts, ...how.after?.(answer) }, null);
      return answer;
    } catch (err) {
      done(input, outcomeOf(err), facts, err);
      throw err;
    }
  };
}
