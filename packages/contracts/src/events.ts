import { z } from 'zod';
import { money, requestStatus } from './common';
import { STAFF_ROLES } from './staff';
import { PENDING_ORDER_TYPES } from './trading';

/**
 * Account events, addressed to one user and (all but the end of their sessions) about one of their
 * trading accounts. The server publishes them on its event bus after the transaction that caused
 * them commits; the stream delivers them to that user's sockets only.
 */
export const moneyRequestEvent = z.object({
  type: z.literal('moneyRequest.updated'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  requestId: z.number(),
  kind: z.enum(['deposit', 'withdrawal']),
  status: requestStatus,
  amount: money,
  /** A rejection's reason, when the broker gave one. */
  reason: z.string().nullable().optional(),
});

/**
 * The balance or credit changed. `reason` names the cause (`deposit-approved`, `position-closed`,
 * `adjustment`, `credit`…); a balance operation of the back office also says by how much
 * (`amount`, signed) and why (`memo`, the administrator's reason, which the trader sees).
 */
export const balanceEvent = z.object({
  type: z.literal('balance.changed'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  balance: money,
  credit: money,
  reason: z.string(),
  amount: money.optional(),
  memo: z.string().optional(),
});

export const accountStatusEvent = z.object({
  type: z.literal('account.sessionsRevoked'),
  userId: z.number(),
  reason: z.string(),
});

/**
 * A staff member's roles changed (not about a trading account): their sessions act with the new
 * roles at once, and their back office shows what these allow.
 */
export const staffRolesEvent = z.object({
  type: z.literal('staff.rolesChanged'),
  userId: z.number(),
  roles: z.array(z.enum(STAFF_ROLES)),
});

export const positionOpenedEvent = z.object({
  type: z.literal('position.opened'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  ticket: z.number(),
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  volume: z.number(),
  price: z.number(),
});

/** A position closed: by its owner, an admin, its stop loss / take profit, or a stop-out. */
export const positionClosedEvent = z.object({
  type: z.literal('position.closed'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  ticket: z.number(),
  symbol: z.string(),
  reason: z.enum(['manual', 'sl', 'tp', 'stop-out', 'admin']),
  price: z.number(),
  profit: money,
  /** Set when part of a position was closed: the ticket that stays open with the rest (`ticket` is the closed part's own). */
  partOf: z.number().optional(),
});

/**
 * An open position's stop loss or take profit changed: by its owner (from any of their devices) or
 * by its trailing stop, which moves the stop loss toward profit as the price goes.
 */
export const positionModifiedEvent = z.object({
  type: z.literal('position.modified'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  ticket: z.number(),
  symbol: z.string(),
  stopLoss: z.number(),
  takeProfit: z.number(),
  by: z.enum(['owner', 'trailing']),
});

/** A price alert fired (once): the tick's `reached` price on the alert's side. Sent to the trader's every terminal. */
export const alertFiredEvent = z.object({
  type: z.literal('alert.fired'),
  userId: z.number(),
  alertId: z.number(),
  symbol: z.string(),
  price: z.enum(['bid', 'ask']),
  direction: z.enum(['above', 'below']),
  level: z.number(),
  reached: z.number(),
  note: z.string(),
});

/** The trader's alerts changed on another device, or one expired: their lists reload. */
export const alertChangedEvent = z.object({
  type: z.literal('alert.changed'),
  userId: z.number(),
  alertId: z.number(),
  change: z.enum(['added', 'modified', 'deleted', 'expired']),
});

/** The account's margin level fell to the margin-call level (sent once until it recovers). */
export const marginCallEvent = z.object({
  type: z.literal('account.marginCall'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  marginLevel: z.string(),
  equity: money,
  margin: money,
});

/**
 * A stop-out step: the margin level was at or below the stop-out level. `ticket` is the position
 * closed (the largest loser among those that could be closed now), or null if none could be;
 * `notClosable` lists the positions left open because their market is closed or has no fresh price.
 */
export const stopOutEvent = z.object({
  type: z.literal('account.stopOut'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  marginLevel: z.string(),
  ticket: z.number().nullable(),
  notClosable: z.array(z.object({ ticket: z.number(), symbol: z.string(), reason: z.enum(['market-closed', 'no-fresh-price']) })),
});

/**
 * A pending order was placed or changed (`pending`, `reason` 'Placed' or 'Modified', so the owner's
 * other devices show it at once) or reached a final state: filled (`ticket` is the position it
 * opened), cancelled, expired, or rejected at activation (`reason` says why, e.g. not enough
 * margin). `symbol`, `orderType` and `volume` let a notice name the order without looking it up.
 * A change or cancel by the back office has its own reason (`ORDER_REASONS`, messages.ts).
 */
export const orderEvent = z.object({
  type: z.literal('order.updated'),
  userId: z.number(),
  /** The trading account it is about. */
  accountId: z.number(),
  orderId: z.number(),
  status: z.enum(['pending', 'filled', 'cancelled', 'expired', 'rejected']),
  reason: z.string(),
  ticket: z.number().nullable(),
  symbol: z.string(),
  orderType: z.enum(PENDING_ORDER_TYPES),
  volume: z.number(),
});

/**
 * One of the user's trading accounts was opened, reset (a demo account), had its state changed by
 * the back office, or had money transferred in or out: their screens reload their accounts.
 */
export const accountChangedEvent = z.object({
  type: z.literal('account.changed'),
  userId: z.number(),
  accountId: z.number(),
  change: z.enum(['opened', 'reset', 'state', 'transfer', 'type']),
});

export const accountEvent = z.discriminatedUnion('type', [accountChangedEvent, moneyRequestEvent, balanceEvent, accountStatusEvent, staffRolesEvent, positionOpenedEvent, positionClosedEvent, positionModifiedEvent, alertFiredEvent, alertChangedEvent, marginCallEvent, stopOutEvent, orderEvent]);
export type AccountEvent = z.infer<typeof accountEvent>;

/**
 * Back-office events: the pending queues changed. They are not addressed to one user; the stream
 * sends them (as `admin` messages) to the sockets of administrators that asked for them with
 * `subscribeAdmin`, so a queue fills and empties live in every admin's browser.
 */
export const moneyRequestCreatedEvent = z.object({
  type: z.literal('moneyRequest.created'),
  requestId: z.number(),
  kind: z.enum(['deposit', 'withdrawal']),
  traderId: z.number(),
  amount: money,
});

/** A pending request was approved ('1') or rejected ('2'), by the administrator `decidedBy`. */
export const moneyRequestDecidedEvent = z.object({
  type: z.literal('moneyRequest.decided'),
  requestId: z.number(),
  kind: z.enum(['deposit', 'withdrawal']),
  traderId: z.number(),
  status: z.enum(['1', '2']),
  decidedBy: z.number(),
});

/**
 * A withdrawal above the second-approval amount got its first approval: it stays pending (the
 * trader sees no change) until a different Finance member completes or rejects it.
 */
export const moneyRequestFirstApprovedEvent = z.object({
  type: z.literal('moneyRequest.firstApproved'),
  requestId: z.number(),
  kind: z.literal('withdrawal'),
  traderId: z.number(),
  approvedBy: z.number(),
});

/** A pending request was cancelled ('3') by the trader who made it; it leaves the pending queue. */
export const moneyRequestCancelledEvent = z.object({
  type: z.literal('moneyRequest.cancelled'),
  requestId: z.number(),
  kind: z.enum(['deposit', 'withdrawal']),
  traderId: z.number(),
});

export const adminEvent = z.discriminatedUnion('type', [moneyRequestCreatedEvent, moneyRequestDecidedEvent, moneyRequestFirstApprovedEvent, moneyRequestCancelledEvent]);
export type AdminEvent = z.infer<typeof adminEvent>;

/**
 * For every instance, not for a browser: an account type was saved, so each instance reads the
 * types' prices again (their spread markups) for the stream and, on the engine leader, for trading.
 */
export const accountTypesChangedEvent = z.object({ type: z.literal('accountTypes.changed') });

/**
 * For every instance, not for a browser: an instrument of the catalogue was saved, so each instance
 * reads it again (its values, sessions and markup) and prices and trades by them from then on.
 */
export const instrumentChangedEvent = z.object({ type: z.literal('instrument.changed'), symbol: z.string() });

/** Everything the event bus carries: account events for one user, back-office events, and news for every instance. */
export const busEvent = z.union([accountEvent, adminEvent, accountTypesChangedEvent, instrumentChangedEvent]);
export type BusEvent = z.infer<typeof busEvent>;
/** News for every instance (not for one user or the back office). */
export type InstanceEvent = z.infer<typeof accountTypesChangedEvent> | z.infer<typeof instrumentChangedEvent>;
export const isInstanceEvent = (event: BusEvent): event is InstanceEvent => event.type === 'accountTypes.changed' || event.type === 'instrument.changed';
export const isAdminEvent = (event: BusEvent): event is AdminEvent => event.type === 'moneyRequest.created' || event.type === 'moneyRequest.decided' || event.type === 'moneyRequest.firstApproved' || event.type === 'moneyRequest.cancelled';
