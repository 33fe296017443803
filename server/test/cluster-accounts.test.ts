import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls, type TradingAccount } from '@tradeport/contracts';
import { Client } from './helpers/client';
import { eventually, margins, openPosition, openTrades, push, tradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * Trading accounts across two instances: a trader served by a follower opens an account and trades
 * on it. The follower passes the account a call names (`X-Trading-Account`, or the browser's
 * `tp_account` cookie) on to the engine leader with the call, so the order lands on that account;
 * an account opened a moment ago is known to the follower's session at once; the back office's
 * answers about an account carry the leader engine's figures.
 */
const PG = process.env.DATABASE_URL ?? '';

const sessionOn = (target: Parameters<typeof tradingDesk>[0], from: Client): Client => {
  const client = new Client(target);
  client.setCookie('tp_session', from.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
  return client;
};

describe('trading accounts through a follower', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('a demo account opened through the follower takes orders sent there with its header or cookie; the live account is untouched; the back office sees its figures', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      await push(leader, 'EURUSD', 1.2, 1.2002);
      await eventually('the follower has the relayed price', async () => follower.app.market.book.get('EURUSD')?.bid === 1.2);
      const desk = await tradingDesk(leader);
      const trader = await desk.fundedTrader('1000.00');
      const onFollower = sessionOn(follower, trader.client);
      // The follower has read the session (and its one account) before the new account exists.
      assert.equal((await margins(onFollower)).balance, '1000.00');

      const opened = await onFollower.post(calls.openAccount.path, { kind: 'demo' });
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      const demo = opened.body.account as TradingAccount;
      assert.deepEqual([demo.kind, demo.balance], ['demo', '10000.00']);

      // Named by the header: the order, sent to the follower, is the demo account's.
      const onDemo = onFollower.onAccount(demo.id);
      const ticket = await openPosition(onDemo, { side: 'buy', volume: 2 });
      const row = await leader.ctx.db.selectFrom('positions').select(['account_id']).where('id', '=', ticket).executeTakeFirstOrThrow();
      assert.equal(row.account_id, demo.id);
      assert.deepEqual((await openTrades(onDemo)).map((p) => p.ticket), [ticket]);
      assert.deepEqual(await openTrades(onFollower), [], 'without a header: the live account, which holds nothing');
      assert.equal((await margins(onFollower)).balance, '1000.00');

      // Named by the browser's choice: the cookie alone moves the follower's answers to the demo account.
      const byCookie = sessionOn(follower, trader.client);
      byCookie.setCookie('tp_account', String(demo.id));
      const demoFigures = await margins(trader.client.onAccount(demo.id));
      assert.ok(Number(demoFigures.totalMargin) > 2000, 'two lots hold margin on the demo account');
      assert.deepEqual(await margins(byCookie), demoFigures, "the follower answers the demo account's figures, as the leader does");
      assert.deepEqual((await openTrades(byCookie)).map((p) => p.ticket), [ticket]);

      // The back office through the follower: the state change answers with the leader's figures.
      const admin = sessionOn(follower, desk.admin);
      const set = await admin.post(calls.setAccountState.path, { accountId: demo.id, state: 'close-only' });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.deepEqual([set.body.account.state, set.body.account.openPositions, set.body.account.margin], ['close-only', 1, demoFigures.totalMargin]);
      const refused = await onDemo.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.match(refused.body.message, /close-only/);
      const closed = await onDemo.post(calls.updateTrades.path, { ticket });
      assert.equal(closed.status, 200, JSON.stringify(closed.body));
    } finally {
      await close();
    }
  });
});
