import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client, fund, paymentAccount, registrationBody, signedInAdmin, signedInTrader } from './helpers/client';

/** Each test here pins a defect found in review, so it cannot come back unnoticed. */
describe('security regressions', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000 } });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin);
  });
  after(() => t.close());

  const count = async (table: 'payment_accounts' | 'sessions') => Number((await t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  test('a percent-encoded /api path does not get around the same-origin check', async () => {
    const before = await count('payment_accounts');
    for (const path of ['/%61pi/dashboard/admin/editStatusPayments.php', '/ap%69/dashboard/admin/editStatusPayments.php']) {
      const res = await fetch(`${t.origin}${path}`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', cookie: admin.cookieHeader, 'content-type': 'application/json' },
        body: JSON.stringify({ id: gateway, isActive: '0' }),
      });
      assert.equal(res.status, 403, path);
    }
    const sessionsBefore = await count('sessions');
    const login = await fetch(`${t.origin}/%61pi/login.php`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{"email":"x@y.zz","password":"whatever-123"}' });
    assert.equal(login.status, 403);
    assert.equal(await count('sessions'), sessionsBefore);
    assert.equal(await count('payment_accounts'), before);
    const row = await t.ctx.db.selectFrom('payment_accounts').select('is_active').where('id', '=', gateway).executeTakeFirstOrThrow();
    assert.equal(row.is_active, 1);
  });

  test('a cross-site HTML form (multipart) cannot reach a call the spec sends as JSON', async () => {
    const form = new FormData();
    form.append('email', 'a@b.cc');
    form.append('password', 'irrelevant-1');
    const res = await fetch(`${t.url}/login.php`, { method: 'POST', headers: { origin: t.origin }, body: form });
    assert.equal(res.status, 415);
  });

  test('correct sign-ins to an inactive account never build up a lock', async () => {
    const { id, email, password } = await signedInTrader(t);
    await admin.postForm('/dashboard/admin/editStatusTraders.php', { id, isActive: '0' });
    for (let i = 0; i < 12; i++) {
      const r = await new Client(t).post('/login.php', { email, password });
      assert.equal(r.status, 403, `attempt ${i + 1}`);
    }
    await admin.postForm('/dashboard/admin/editStatusTraders.php', { id, isActive: '1' });
    const ok = await new Client(t).post('/login.php', { email, password });
    assert.equal(ok.body.status, 'Success');
  });

  test('a sign-in racing an admin password reset never leaves a session made with the old password', async () => {
    const { id, email, password } = await signedInTrader(t);
    for (let round = 0; round < 12; round++) {
      const newPassword = `fresh-river-${round}-x9`;
      const old = round === 0 ? password : `fresh-river-${round - 1}-x9`;
      const c = new Client(t);
      const [login, reset] = await Promise.all([c.post('/login.php', { email, password: old }), admin.postForm('/dashboard/admin/editTraderPassword.php', { trader_id: id, newPassword })]);
      assert.equal(reset.body.status, 'success');
      if (login.body.status === 'Success') {
        const check = await c.get('/testSession.php');
        assert.equal(check.body.status, 'Failure', `round ${round}: the old-password session outlived the reset`);
      }
    }
  });

  test('simultaneous retries with one Idempotency-Key all get the first answer', async () => {
    const { client } = await signedInTrader(t);
    await fund(client, admin, gateway, '100.00');
    const key = `wd-${Date.now()}`;
    const replies = await Promise.all([1, 2, 3, 4].map(() => client.post('/platform/addWithdrawal.php', { withdrawalsAmount: '100.00', paymentAccount: 'IBAN 1' }, { 'idempotency-key': key })));
    for (const r of replies) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(new Set(replies.map((r) => r.body.id)).size, 1);
    const list = await client.get('/platform/getTraderWithdrawals.php');
    assert.equal(list.body.data.length, 1);
  });

  test('guessing the current password through a session is limited like sign-in', async () => {
    const { client, password } = await signedInTrader(t);
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await client.post('/dashboard/customer/changePassword.php', { currentPassword: `wrong-guess-${i}`, newPassword: 'meadow-lantern-77' })).status);
    assert.deepEqual(answers, [400, 400, 400, 400, 400, 400, 400, 400, 400, 429]);
    const right = await client.post('/dashboard/customer/changePassword.php', { currentPassword: password, newPassword: 'meadow-lantern-77' });
    assert.equal(right.status, 429, 'locked even with the right password');
  });

  test('a user who signed out is Offline at once', async () => {
    const { client, id } = await signedInTrader(t);
    const row = async () => ((await admin.get('/dashboard/admin/getTraders.php')).body.data as { id: number; status: string }[]).find((u) => u.id === id)!;
    assert.equal((await row()).status, 'Online');
    await client.post('/logout.php');
    assert.equal((await row()).status, 'Offline');
  });

  test('a chunked multipart form cannot add up past the body limit', async () => {
    const boundary = 'tradeportboundary';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const text = part('name', 'Big') + part('number', '1') + Array.from({ length: 15 }, (_, i) => part(`pad${i}`, 'x'.repeat(60_000))).join('') + `--${boundary}--\r\n`;
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16_384) controller.enqueue(bytes.slice(i, i + 16_384));
        controller.close();
      },
    });
    const before = await count('payment_accounts');
    const res = await fetch(`${t.url}/dashboard/admin/addNewPayments.php`, {
      method: 'POST',
      headers: { origin: t.origin, cookie: admin.cookieHeader, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.equal(await count('payment_accounts'), before);
  });

  test('admin search folds non-ASCII letters on every engine', async () => {
    const body = registrationBody({ firstName: 'Özil', lastName: 'Ärmel' });
    const trader = new Client(t);
    await trader.post('/registration.php', body);
    await trader.post('/login.php', { email: body.email, password: body.password });
    await trader.post('/platform/addDeposite.php', { depositAmount: '5', paymentAccount: '1', payment_getways_id: gateway });
    const r = await admin.get('/dashboard/admin/getMoneyRequests.php?search=%C3%B6zil');
    assert.equal(r.body.total, 1);
    assert.equal(r.body.data[0].firstName, 'Özil');
  });
});
