import assert from 'node:assert/strict';
import { calls, isAdminEvent, isInstanceEvent, type AccountEvent, type historyRow, type OpenTrade } from '@tradeport/contracts';
import type { z } from 'zod';
import { FEED_TOKEN, startApp, type StartOptions, type TestApp } from './app';
import { Client, fund, paymentAccount, signedInAdmin, signedInTrader, type SignedInTrader, type TraderOptions } from './client';

/**
 * What the trading test files (trading, trading-risk, pending-orders, closed-trades) share: pushing
 * quotes through the price bridge, opening and closing positions over HTTP, reading a trader's open
 * positions, history and margins, funded traders, and waiting for work the engine does in the background.
 */

// Many sign-ups and sign-ins from one address, and many orders from one trader, within a minute;
// the limits are tested elsewhere (order-limits.test.ts for the order limits).
export const roomyLimits = { signupRateLimitPerMinute: 100_000, signinRateLimitPerMinute: 100_000, orderRateLimitPerMinute: 1_000_000, maxPendingOrders: 100_000 };

/** The EURUSD quote most scenarios start from: a Buy fills at (and Buy order types compare with) 1.10020, a Sell at 1.10000. */
export const BID = 1.1;
export const ASK = 1.1002;

export type Side = 'buy' | 'sell';
/** A row of getTrades. */
export type OpenRow = OpenTrade;
/** A row of getTradesHistory. */
export type HistoryRow = z.infer<typeof historyRow>;
export type Tick = { symbol: string; bid: number; ask: number };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Pushes ticks through the price bridge in one request; when this returns they are in the book and
 * every one was accepted (SL/TP, pending-order activation and closes they trigger run after).
 */
export async function pushTicks(t: TestApp, ticks: Tick[]): Promise<void> {
  const res = await fetch(`${t.url}${calls.feedTicks.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FEED_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ticks }),
  });
  const body = (await res.json()) as { accepted?: number };
  assert.equal(res.status, 200, JSON.stringify(body));
  const [one] = ticks;
  assert.equal(body.accepted, ticks.length, ticks.length === 1 && one ? `${one.symbol} ${one.bid}/${one.ask} accepted` : `${JSON.stringify(ticks)} accepted`);
}

/** Pushes one tick (see `pushTicks`). */
export const push = (t: TestApp, symbol: string, bid: number, ask: number) => pushTicks(t, [{ symbol, bid, ask }]);

/** Polls until `probe` answers something truthy (fills and closes fired by ticks run in the background). */
export async function eventually<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** The reply is a refusal: this HTTP status, `status: 'Failure'`, and (if given) this message. */
export function assertFailure(r: { status: number; body: { status?: string; message?: string } }, status: number, message?: string | RegExp): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.status, 'Failure', JSON.stringify(r.body));
  if (typeof message === 'string') assert.equal(r.body.message, message);
  else if (message) assert.match(r.body.message ?? '', message);
}

/** The trader's open positions (getTrades). */
export async function openTrades(client: Client): Promise<OpenRow[]> {
  const r = await client.get(calls.getTrades.path);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success');
  return r.body.data as OpenRow[];
}

/** The trader's closed positions (getTradesHistory). */
export async function history(client: Client): Promise<HistoryRow[]> {
  const r = await client.get(calls.getTradesHistory.path);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success');
  return r.body.data as HistoryRow[];
}

/** The trader's getMargins reply: balance, equity, margin, free margin, margin level … */
export async function margins(client: Client): Promise<Record<string, string>> {
  const r = await client.get(calls.getMargins.path);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as Record<string, string>;
}

export interface MarketOrder {
  /** EURUSD unless given. */
  symbol?: string;
  side: Side;
  /** 1 lot unless given. */
  volume?: number;
  stopLoss?: number;
  takeProfit?: number;
  comment?: string;
}

/** Opens a position at the market (addTrades) that must be accepted; returns its ticket. */
export async function openPosition(client: Client, order: MarketOrder): Promise<number> {
  const r = await client.post(calls.addTrades.path, {
    fullSymbol: order.symbol ?? 'EURUSD',
    tradestypes: order.side,
    volume: order.volume ?? 1,
    stopLoss: order.stopLoss ?? 0,
    takeProfit: order.takeProfit ?? 0,
    comment: order.comment ?? '',
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success', JSON.stringify(r.body));
  assert.ok(Number.isInteger(r.body.ticket) && r.body.ticket > 0, JSON.stringify(r.body));
  return r.body.ticket as number;
}

/** Closes the trader's position at the server's price (updateTrades); the close must be accepted. */
export async function closePosition(client: Client, ticket: number): Promise<void> {
  const r = await client.post(calls.updateTrades.path, { ticket });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** The account events the bus delivers (to one user, if `userId` is given), collected until `stop()`. */
export function recordEvents(t: TestApp, userId?: number): { events: AccountEvent[]; stop(): void } {
  const events: AccountEvent[] = [];
  const stop = t.ctx.bus.subscribe((e) => {
    if (isAdminEvent(e) || isInstanceEvent(e)) return;
    if (userId === undefined || e.userId === userId) events.push(e);
  });
  return { events, stop };
}

export interface TradingDesk {
  admin: Client;
  /** The payment account the traders' deposits go to. */
  gateway: number;
  /**
   * A new trader with `amount` USD deposited and approved. `remember` signs them in again with
   * "remember me", so the session survives jumps of the test clock.
   */
  fundedTrader(amount?: string, opts?: TraderOptions & { remember?: boolean }): Promise<SignedInTrader>;
}

/** Signs in the administrator and adds a payment account, for funding traders on this server. */
export async function tradingDesk(t: TestApp, bank?: string): Promise<TradingDesk> {
  const admin = await signedInAdmin(t);
  const gateway = await paymentAccount(admin, bank);
  const fundedTrader: TradingDesk['fundedTrader'] = async (amount = '10000.00', { remember, ...who } = {}) => {
    const trader = await signedInTrader(t, who);
    if (remember) {
      const login = await trader.client.post('/login.php', { email: trader.email, password: trader.password, rememberMe: true });
      assert.equal(login.body.status, 'Success', JSON.stringify(login.body));
    }
    await fund(trader.client, admin, gateway, amount);
    return trader;
  };
  return { admin, gateway, fundedTrader };
}

/** Signs an existing trader in on `t` (after a restart, say) and returns their client. */
export async function signIn(t: TestApp, who: { email: string; password: string }): Promise<Client> {
  const client = new Client(t);
  assert.equal((await client.post('/login.php', { email: who.email, password: who.password })).body.status, 'Success');
  return client;
}

/** Runs `run` on a fresh server (and database) with its trading desk, closing the server afterwards. */
export async function withTradingDesk(options: StartOptions, bank: string, run: (t: TestApp, desk: TradingDesk) => Promise<void>): Promise<void> {
  const t = await startApp(options);
  try {
    await run(t, await tradingDesk(t, bank));
  } finally {
    await t.close();
  }
}
