import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { ALL_PERMISSIONS, calls, holds, permissionRefusal, STAFF_ROLES, type CallDefinition, type StaffMember, type StaffRole } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInStaff, signedInTrader, type SignedInTrader } from './helpers/client';

/**
 * Staff roles (docs/design.md#staff-roles): every back-office call is allowed to the roles its
 * permission names and refused (and audited) for the others; administrators add staff, set their
 * roles and disable them, and a change reaches the person's sessions at once.
 */
describe('staff roles', () => {
  let t: TestApp;
  let admin: Client;
  let trader: SignedInTrader;
  const staff = new Map<StaffRole, { client: Client; id: number; email: string; password: string }>();
  const staffCalls = Object.entries(calls as Record<string, CallDefinition>).filter(([, c]) => c.access === 'staff');

  const ask = (client: Client, call: CallDefinition) => (call.method === 'GET' ? client.get(call.path) : client.post(call.path, {}));
  const refusals = (actorId: number) => t.ctx.db.selectFrom('audit_log').select(['target_id', 'after_json']).where('action', '=', 'access.refused').where('actor_id', '=', actorId).orderBy('id').execute();

  before(async () => {
    t = await startApp();
    admin = await signedInAdmin(t);
    trader = await signedInTrader(t, { firstName: 'Tara', lastName: 'Trader' });
    for (const role of STAFF_ROLES) staff.set(role, await signedInStaff(t, admin, [role], { firstName: role }));
  });
  after(() => t.close());

  test('every staff call × every role: allowed or refused as its permission declares; refusals are audited and change nothing', async () => {
    assert.equal(staffCalls.length, 45);
    for (const role of STAFF_ROLES) {
      const member = staff.get(role)!;
      const refusedBefore = (await refusals(member.id)).length;
      let refused = 0;
      for (const [name, call] of staffCalls) {
        const r = await ask(member.client, call);
        if (holds([role], call.permission!)) {
          // Empty input: the call got past the permission check to its own validation, or answered.
          assert.notEqual(r.status, 403, `${role} may ${name}: ${JSON.stringify(r.body)}`);
          assert.ok(r.status === 200 || r.status === 400 || r.status === 404, `${role} ${name}: ${r.status} ${JSON.stringify(r.body)}`);
        } else {
          assert.equal(r.status, 403, `${role} may not ${name}`);
          assert.deepEqual(r.body, { status: 'Failure', message: permissionRefusal(call.permission!) }, `${role} ${name}`);
          refused++;
        }
      }
      const audited = (await refusals(member.id)).slice(refusedBefore);
      assert.equal(audited.length, refused, `${role}: one audit entry per refused call`);
      if (role === 'administrator') assert.equal(refused, 0, 'an administrator may make every call');
      else assert.ok(refused > 0, `${role} is refused something`);
    }
  });

  test('the roles of the issue: a dealer deals, finance handles money, support helps traders', () => {
    const may = (role: StaffRole, name: keyof typeof calls) => holds([role], (calls[name] as CallDefinition).permission!);
    assert.ok(may('dealer', 'editStatusTrades') && may('dealer', 'getExposure') && may('dealer', 'saveInstrument') && may('dealer', 'saveAccountType'));
    assert.ok(!may('dealer', 'editStatusWithdrawal') && !may('dealer', 'addBalanceOperation') && !may('dealer', 'getStaff'));
    assert.ok(may('finance', 'editStatusDeposite') && may('finance', 'editStatusWithdrawal') && may('finance', 'addNewPayments') && may('finance', 'getBrokerReport'));
    assert.ok(!may('finance', 'editStatusTrades') && !may('finance', 'saveInstrument') && !may('finance', 'editTraderPassword'));
    assert.ok(may('support', 'getTraderDetails') && may('support', 'editTraderPassword') && may('support', 'getTraders'));
    assert.ok(!may('support', 'editStatusTraders') && !may('support', 'editStatusDeposite') && !may('support', 'getAuditLog') && !may('support', 'editStatusTrades'));
    for (const name of ['getStaff', 'addStaffMember', 'editStaffMember', 'getAuditLog'] as const) for (const role of ['dealer', 'finance', 'support'] as const) assert.ok(!may(role, name), `${role} ${name}`);
  });

  test('the permission matrix in docs/design.md#staff-roles is the one the server enforces', () => {
    const doc = readFileSync(new URL('../../docs/design.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((l) => /^\| `[a-z]+\.[a-z-]+` \|/.test(l));
    const documented = Object.fromEntries(rows.map((l) => {
      const cells = l.split('|').slice(1, -1).map((c) => c.trim());
      return [cells[0]!.replace(/`/g, ''), STAFF_ROLES.filter((_, i) => cells[2 + i] === '✓')];
    }));
    assert.deepEqual(documented, Object.fromEntries(ALL_PERMISSIONS.map((p) => [p, STAFF_ROLES.filter((r) => holds([r], p))])));
  });

  test('a refused attempt names the call and what it needed in the audit log', async () => {
    const dealer = staff.get('dealer')!;
    const before = (await refusals(dealer.id)).length;
    const r = await dealer.client.post(calls.editStatusWithdrawal.path, { withdrawals_id: 1, status: '1' });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { status: 'Failure', message: 'This action needs the Administrator or Finance role.' });
    const entry = (await refusals(dealer.id))[before]!;
    assert.equal(entry.target_id, `POST /api${calls.editStatusWithdrawal.path}`);
    assert.deepEqual(JSON.parse(entry.after_json), { permission: 'money.decide', roles: ['dealer'] });
  });

  test('a trader may make no staff call, and is told so; staff may make no trader call', async () => {
    for (const [name, call] of staffCalls) {
      const r = await ask(trader.client, call);
      assert.equal(r.status, 403, name);
      assert.deepEqual(r.body, { status: 'Failure', message: 'This action is for back-office staff only.' }, name);
    }
    const r = await staff.get('finance')!.client.post(calls.addDeposite.path, { amount: '10', paymentGetways_id: 1 });
    assert.equal(r.status, 403);
  });

  test('the session answer carries the roles and what they allow', async () => {
    const own = (await staff.get('support')!.client.get(calls.testSession.path)).body;
    assert.equal(own.accountType, '1');
    assert.deepEqual(own.staffRoles, ['support']);
    assert.deepEqual(own.permissions, ['traders.view', 'traders.password', 'statements.view']);
    const adminSession = (await admin.get(calls.testSession.path)).body;
    assert.deepEqual(adminSession.staffRoles, ['administrator']);
    assert.ok(!adminSession.permissions.includes('money.second-approval'), 'a second approval is finance work');
    assert.ok(adminSession.permissions.includes('staff.manage'));
    const traderSession = (await trader.client.get(calls.testSession.path)).body;
    assert.equal(traderSession.staffRoles, undefined);
    assert.equal(traderSession.permissions, undefined);
  });

  test('support sets a trader\'s password, never a staff member\'s; an administrator may', async () => {
    const support = staff.get('support')!;
    const ok = await support.client.postForm(calls.editTraderPassword.path, { trader_id: trader.id, newPassword: 'Another-Pass-77-ok' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const dealer = staff.get('dealer')!;
    const refused = await support.client.postForm(calls.editTraderPassword.path, { trader_id: dealer.id, newPassword: 'Another-Pass-77-ok' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, "Only an administrator may change a staff member's account.");
    const login = await new Client(t).post(calls.login.path, { email: dealer.email, password: dealer.password });
    assert.equal(login.body.status, 'Success', 'the dealer keeps their password');
  });
});

describe('the staff page', () => {
  let t: TestApp;
  let admin: Client;
  let adminId: number;
  const list = async () => (await admin.get(calls.getStaff.path)).body.data as StaffMember[];
  const audits = (action: string) => t.ctx.db.selectFrom('audit_log').select(['target_id', 'before_json', 'after_json']).where('action', '=', action).orderBy('id').execute();

  before(async () => {
    t = await startApp();
    admin = await signedInAdmin(t);
    adminId = (await admin.get(calls.testSession.path)).body.user.id as number;
  });
  after(() => t.close());

  test('an administrator adds a staff member, who signs in with those roles; the addition is audited', async () => {
    const before = await list();
    assert.equal(before[0]!.bootstrap, true);
    assert.deepEqual(before[0]!.roles, ['administrator']);
    const r = await admin.post(calls.addStaffMember.path, { firstName: 'Fiona', lastName: 'Finch', email: 'Fiona.Finch@Broker.example', password: 'Finance-Desk-2026', roles: ['support', 'finance'] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.message, 'Fiona Finch can now sign in to the back office.');
    const member = r.body.member as StaffMember;
    assert.deepEqual([member.email, member.roles, member.active, member.bootstrap], ['fiona.finch@broker.example', ['finance', 'support'], true, false]);
    assert.deepEqual((await list()).map((m) => m.email), [before[0]!.email, 'fiona.finch@broker.example']);
    const [entry] = await audits('staff.add');
    assert.equal(entry!.target_id, String(member.id));
    assert.deepEqual(JSON.parse(entry!.after_json).roles, ['finance', 'support']);
    const fiona = new Client(t);
    const login = await fiona.post(calls.login.path, { email: 'fiona.finch@broker.example', password: 'Finance-Desk-2026' });
    assert.deepEqual([login.body.status, login.body.accountType], ['Success', '1']);
    assert.equal((await fiona.get(calls.getPendingDeposite.path)).status, 200);
  });

  test('bad additions are refused with the reason and add no one', async () => {
    const count = (await list()).length;
    const good = { firstName: 'Bad', lastName: 'Input', email: 'bad.input@broker.example', password: 'Finance-Desk-2026', roles: ['dealer'] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, roles: [] }, 'Choose at least one role.'],
      [{ ...good, roles: ['owner'] }, 'Role 1: Unknown role; choose administrator, dealer, finance or support.'],
      [{ ...good, roles: ['dealer', 'dealer'] }, 'Choose at most each role once.'],
      [{ ...good, email: 'not-an-email' }, 'Please enter a valid email address.'],
      [{ ...good, firstName: '' }, 'Please enter the first name.'],
      [{ ...good, password: 'short' }, ''],
      [{ ...good, email: 'fiona.finch@broker.example' }, 'A user with this email already exists.'],
    ];
    for (const [body, message] of cases) {
      const r = await admin.post(calls.addStaffMember.path, body);
      assert.ok(r.status === 400 || r.status === 409, `${JSON.stringify(body)}: ${r.status}`);
      assert.equal(r.body.status, 'Failure');
      if (message) assert.equal(r.body.message, message, JSON.stringify(body));
    }
    assert.equal((await list()).length, count);
  });

  test('new roles apply to the person\'s open session at once, and their stream is told', async () => {
    const dealer = await signedInStaff(t, admin, ['dealer']);
    assert.equal((await dealer.client.get(calls.getMoneyRequests.path)).status, 403);
    const r = await admin.post(calls.editStaffMember.path, { id: dealer.id, roles: ['dealer', 'finance'] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.message, 'Staff dealer now holds the roles dealer, finance.');
    assert.equal((await dealer.client.get(calls.getMoneyRequests.path)).status, 200, 'no new sign-in needed');
    assert.deepEqual((await dealer.client.get(calls.testSession.path)).body.staffRoles, ['dealer', 'finance']);
    await admin.post(calls.editStaffMember.path, { id: dealer.id, roles: ['support'] });
    assert.equal((await dealer.client.get(calls.getMoneyRequests.path)).status, 403, 'a role taken away is gone at once');
    const entries = await audits('staff.edit');
    assert.deepEqual(JSON.parse(entries.at(-1)!.before_json), { roles: ['dealer', 'finance'], active: true });
    assert.deepEqual(JSON.parse(entries.at(-1)!.after_json), { roles: ['support'], active: true });
  });

  test('disabling a staff member ends their sessions; enabling lets them sign in again', async () => {
    const member = await signedInStaff(t, admin, ['support']);
    const off = await admin.post(calls.editStaffMember.path, { id: member.id, active: false });
    assert.equal(off.body.message, 'Staff support is disabled and signed out.');
    assert.equal((await member.client.get(calls.getTraders.path)).status, 401);
    const again = await new Client(t).post(calls.login.path, { email: member.email, password: member.password });
    assert.notEqual(again.body.status, 'Success');
    assert.equal((await list()).find((m) => m.id === member.id)!.active, false);
    await admin.post(calls.editStaffMember.path, { id: member.id, active: true });
    const back = await new Client(t).post(calls.login.path, { email: member.email, password: member.password });
    assert.equal(back.body.status, 'Success');
  });

  test('the bootstrap administrator stays; nobody takes away their own administrator role or disables themself', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ id: adminId, roles: ['finance'] }, 'The bootstrap administrator stays an active administrator.'],
      [{ id: adminId, active: false }, 'The bootstrap administrator stays an active administrator.'],
    ];
    const second = await signedInStaff(t, admin, ['administrator']);
    cases.push([{ id: second.id, roles: ['dealer'] }, 'You cannot take away your own administrator role; ask another administrator.']);
    cases.push([{ id: second.id, active: false }, 'You cannot disable your own account.']);
    for (const [i, [body, message]] of cases.entries()) {
      const r = await (i < 2 ? admin : second.client).post(calls.editStaffMember.path, body);
      assert.equal(r.status, 403, JSON.stringify(body));
      assert.equal(r.body.message, message);
    }
    assert.deepEqual((await list()).find((m) => m.id === second.id)!.roles, ['administrator']);
    // Another administrator may change the second one.
    const r = await admin.post(calls.editStaffMember.path, { id: second.id, roles: ['administrator', 'dealer'] });
    assert.equal(r.status, 200);
  });

  test('bad edits are refused: a trader is not staff, unknown ids, nothing to send', async () => {
    const trader = await signedInTrader(t);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ id: trader.id, roles: ['dealer'] }, 404, 'Staff member not found.'],
      [{ id: 999999, active: true }, 404, 'Staff member not found.'],
      [{ id: adminId }, 400, 'Send the roles, active, or both.'],
      [{ id: adminId, active: 'yes' }, 400, 'Active must be true or false.'],
    ];
    for (const [body, status, message] of cases) {
      const r = await admin.post(calls.editStaffMember.path, body);
      assert.deepEqual([r.status, r.body.message], [status, message], JSON.stringify(body));
    }
    assert.deepEqual((await trader.client.get(calls.testSession.path)).body.accountType, '0');
  });
});
