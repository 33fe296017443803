import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client, fund, paymentAccount, registrationBody, signedInAdmin, signedInTrader, uniqueEmail } from './helpers/client';

/**
 * Security review finding 4: text a person types into a one-line field (names, phone, account
 * references, comments) ends up in the broker's mails, logs, CSV files and other people's screens.
 * Line breaks, control characters and bidirectional overrides are refused at the schema, in the
 * spec's Failure shape, and nothing is written.
 */

const BAD = [
  ['a line feed', 'Ada\n\nYour account is locked. Call +44 20 0000 0000'],
  ['a carriage return', 'Ada\rPlease confirm'],
  ['a tab', 'Ada\tLovelace'],
  ['a NEL (C1 control)', 'Ada\u0085Urgent'],
  ['a line separator', 'Ada\u2028Urgent'],
  ['a right-to-left override', 'Ada\u202Egnp.exe'],
  ['a bell', 'Ada\u0007'],
] as const;

describe('one-line fields refuse line breaks and control characters', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  before(async () => {
    t = await startApp({ config: { signupRateLimitPerMinute: 100_000, signinRateLimitPerMinute: 100_000 } });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin);
  });
  after(() => t.close());

  const users = async () => Number((await t.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  test('sign-up: a crafted first or last name or phone is refused and no account is created', async () => {
    const before = await users();
    for (const [what, value] of BAD) {
      for (const [field, label] of [['firstName', 'First name'], ['lastName', 'Last name'], ['phoneNo', 'Phone number']] as const) {
        const email = uniqueEmail('crafted');
        // Short enough for every field's length limit, so the refusal is about the characters.
        const r = await new Client(t).post('/registration.php', { ...registrationBody({ email }), [field]: value.slice(0, 15) });
        assert.equal(r.status, 400, `${field} with ${what}`);
        assert.deepEqual(r.body, { status: 'Failure', message: `${label} must be one line of text, without line breaks or control characters.` }, `${field} with ${what}`);
      }
    }
    assert.equal(await users(), before);
    // Names from every script stay welcome.
    const ok = await new Client(t).post('/registration.php', registrationBody({ firstName: 'Zoë-Ngọc', lastName: "O'Brien 王 محمد" }));
    assert.equal(ok.body.status, 'Success', JSON.stringify(ok.body));
  });

  test('profile edits, account references, trade comments and payment account names are refused the same way, and nothing changes', async () => {
    const trader = await signedInTrader(t, { firstName: 'Ada' });
    await fund(trader.client, admin, gateway, '1000');
    const [, crafted] = BAD[0];

    const profile = await trader.client.post('/dashboard/customer/editProfileDetails.php', { firstName: crafted, lastName: 'Lovelace', phoneNo: '4915112345678', country_id: '840', dateOfBirth: '', nationality: '' });
    assert.deepEqual(profile.body, { status: 'Failure', message: 'First name must be one line of text, without line breaks or control characters.' });
    const nationality = await trader.client.post('/dashboard/customer/editProfileDetails.php', { firstName: 'Ada', lastName: 'Lovelace', phoneNo: '4915112345678', country_id: '840', dateOfBirth: '', nationality: 'British\u202E' });
    assert.deepEqual(nationality.body, { status: 'Failure', message: 'Nationality must be one line of text, without line breaks or control characters.' });
    const row = await t.ctx.db.selectFrom('users').select(['first_name']).where('id', '=', trader.id).executeTakeFirstOrThrow();
    assert.equal(row.first_name, 'Ada');

    const deposit = await trader.client.post('/platform/addDeposite.php', { depositAmount: '10', paymentAccount: '1234\nSee attached', payment_getways_id: gateway });
    assert.deepEqual(deposit.body, { status: 'Failure', message: 'The account reference must be one line of text, without line breaks or control characters.' });
    const withdrawal = await trader.client.post('/platform/addWithdrawal.php', { withdrawalsAmount: '10', paymentAccount: 'GB29\u0000x' });
    assert.equal(withdrawal.status, 400);
    assert.equal(withdrawal.body.status, 'Failure');

    const trade = await trader.client.post('/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01, comment: 'scalp\r\nX' });
    assert.deepEqual(trade.body, { status: 'Failure', message: 'The comment must be one line of text, without line breaks or control characters.' });
    assert.equal((await trader.client.get('/platform/getTrades.php')).body.data.length, 0);

    const accountsBefore = (await admin.get('/dashboard/admin/getPaymentGetways.php')).body.data.length;
    const name = await admin.postForm('/dashboard/admin/addNewPayments.php', { name: 'Bank\nTransfer to 123', number: '1', moreInfo: '', isActive: 1 });
    assert.deepEqual(name.body, { status: 'Failure', message: 'The account name must be one line of text, without line breaks or control characters.' });
    // More info may span lines, but carries no control characters.
    const bell = await admin.postForm('/dashboard/admin/addNewPayments.php', { name: 'Bank', number: '1', moreInfo: 'Line one\u0007', isActive: 1 });
    assert.deepEqual(bell.body, { status: 'Failure', message: 'More info must not contain control characters.' });
    const lines = await admin.postForm('/dashboard/admin/addNewPayments.php', { name: 'Second bank', number: '2', moreInfo: 'IBAN: GB29 NWBK\nReference: your email', isActive: 1 });
    assert.equal(lines.body.status, 'success', JSON.stringify(lines.body));
    assert.equal((await admin.get('/dashboard/admin/getPaymentGetways.php')).body.data.length, accountsBefore + 1);
  });
});
