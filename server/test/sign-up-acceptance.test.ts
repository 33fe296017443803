import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client, registrationBody } from './helpers/client';

/**
 * Sign-up records which legal documents the new trader accepted, and which text of each: the form
 * sends `acceptedDocuments` with the versions it showed; the spec's payload without the field still
 * opens an account (and records no acceptance).
 */

interface Doc {
  id: string;
  title: string;
  version: string;
}

describe('sign-up: accepting the Terms and the Risk Disclosure', () => {
  let t: TestApp;
  let dir: string;
  let docs: Doc[];
  const versionOf = (id: string) => docs.find((d) => d.id === id)!.version;
  const signUp = (body: unknown) => new Client(t).post('/registration.php', body);
  const acceptances = (email: string) =>
    t.ctx.db
      .selectFrom('legal_acceptances')
      .innerJoin('users', 'users.id', 'legal_acceptances.user_id')
      .select(['document_id', 'version', 'accepted_at', 'legal_acceptances.ip'])
      .where('users.email', '=', email)
      .orderBy('legal_acceptances.id')
      .execute();
  const userExists = async (email: string) => (await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tp-accept-'));
    writeFileSync(join(dir, 'terms.md'), '# Terms of Business\n\nThe first text.\n');
    writeFileSync(join(dir, 'risk-disclosure.md'), '# Risk Disclosure\n\nTrading is risky.\n');
    writeFileSync(join(dir, 'privacy.md'), '# Privacy Policy\n\nWe keep little.\n');
    t = await startApp({ config: { legalDir: dir } });
    docs = (await new Client(t).get('/getLegalDocuments.php')).body.data;
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the form’s payload opens the account and records each accepted document, its version and when', async () => {
    const body = { ...registrationBody(), acceptedDocuments: [{ id: 'terms', version: versionOf('terms') }, { id: 'risk-disclosure', version: versionOf('risk-disclosure') }] };
    const r = await signUp(body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'Success');
    const rows = await acceptances(body.email);
    assert.deepEqual(
      rows.map((a) => [a.document_id, a.version, Number(a.accepted_at)]),
      [
        ['terms', versionOf('terms'), t.clock.now()],
        ['risk-disclosure', versionOf('risk-disclosure'), t.clock.now()],
      ],
    );
    assert.ok(rows.every((a) => a.ip.length > 0));
  });

  test('the spec’s payload without acceptedDocuments still opens an account, with nothing recorded', async () => {
    const body = registrationBody();
    const r = await signUp(body);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'Success');
    assert.deepEqual(await acceptances(body.email), []);
  });

  test('leaving out a required document is refused by name and creates no account', async () => {
    const body = { ...registrationBody(), acceptedDocuments: [{ id: 'terms', version: versionOf('terms') }] };
    const r = await signUp(body);
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { status: 'Failure', message: 'Please accept the Risk Disclosure to open an account.' });
    assert.equal(await userExists(body.email), false);
    const none = await signUp({ ...registrationBody(), acceptedDocuments: [] });
    assert.deepEqual(none.body, { status: 'Failure', message: 'Please accept the Terms of Business and the Risk Disclosure to open an account.' });
  });

  test('an outdated version or an unpublished document is refused and creates no account', async () => {
    const stale = { ...registrationBody(), acceptedDocuments: [{ id: 'terms', version: '0000000000000000' }, { id: 'risk-disclosure', version: versionOf('risk-disclosure') }] };
    const r = await signUp(stale);
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'The Terms of Business changed while you were signing up. Please read the new version and accept it again.');
    assert.equal(await userExists(stale.email), false);
    const unknown = { ...registrationBody(), acceptedDocuments: [...['terms', 'risk-disclosure'].map((id) => ({ id, version: versionOf(id) })), { id: '../secrets', version: 'x' }] };
    const u = await signUp(unknown);
    assert.equal(u.status, 400);
    assert.equal(u.body.message, 'One of the accepted documents is not published.');
    assert.equal(await userExists(unknown.email), false);
  });

  test('malformed acceptedDocuments is refused in the spec’s shape', async () => {
    for (const acceptedDocuments of ['yes', [{ id: 'terms' }], Array.from({ length: 11 }, () => ({ id: 'terms', version: 'v' }))]) {
      const r = await signUp({ ...registrationBody(), acceptedDocuments });
      assert.equal(r.status, 400, JSON.stringify(acceptedDocuments));
      assert.equal(r.body.status, 'Failure');
      assert.equal(typeof r.body.message, 'string');
    }
  });

  test('after the operator edits the Terms, the new version is the one to accept', async () => {
    const old = versionOf('terms');
    writeFileSync(join(dir, 'terms.md'), '# Terms of Business\n\nThe second, longer text.\n');
    const list: Doc[] = (await new Client(t).get('/getLegalDocuments.php')).body.data;
    const fresh = list.find((d) => d.id === 'terms')!.version;
    assert.notEqual(fresh, old);
    const withOld = await signUp({ ...registrationBody(), acceptedDocuments: [{ id: 'terms', version: old }, { id: 'risk-disclosure', version: versionOf('risk-disclosure') }] });
    assert.equal(withOld.status, 400);
    const body = { ...registrationBody(), acceptedDocuments: [{ id: 'terms', version: fresh }, { id: 'risk-disclosure', version: versionOf('risk-disclosure') }] };
    assert.equal((await signUp(body)).status, 200);
    assert.deepEqual((await acceptances(body.email)).map((a) => a.version), [fresh, versionOf('risk-disclosure')]);
  });
});

describe('sign-up when the operator publishes no Terms or Risk Disclosure', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tp-accept-none-'));
    writeFileSync(join(dir, 'privacy.md'), '# Privacy Policy\n\nWe keep little.\n');
    t = await startApp({ config: { legalDir: dir } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an empty acceptance opens the account: there is nothing to accept', async () => {
    const r = await new Client(t).post('/registration.php', { ...registrationBody(), acceptedDocuments: [] });
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'Success');
  });
});
