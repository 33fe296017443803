import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { permissionsOf, STAFF_ROLES, type StaffRole } from '@tradeport/contracts';
import { isGroup, menuFor, pagePermission, type MenuEntry } from '../src/dashboard/menu';

const labels = (menu: MenuEntry[]): string[] => menu.flatMap((e) => (isGroup(e) ? e.links.map((l) => `${e.label} › ${l.label}`) : [e.label]));
const menuOf = (...roles: StaffRole[]) => labels(menuFor('admin', permissionsOf(roles)));

describe('the back office menu follows the staff member\'s roles', () => {
  it('an administrator sees every page, Staff included', () => {
    assert.deepEqual(menuOf('administrator'), [
      'Dashboard', 'Admin Accounts', 'Account Types', 'Symbols', 'Users', 'Open Trades', 'Exposure', 'Reports',
      'User Requests › User Deposit Requests', 'User Requests › User Withdraw Requests', 'User Requests › User Closed Records',
      'Audit Log', 'Staff', 'Legal Terms and Policies',
    ]);
  });

  it('each other role sees its own part, and a group with nothing left is not shown', () => {
    assert.deepEqual(menuOf('support'), ['Dashboard', 'Users', 'Legal Terms and Policies']);
    assert.deepEqual(menuOf('dealer'), ['Dashboard', 'Account Types', 'Symbols', 'Users', 'Open Trades', 'Exposure', 'User Requests › User Closed Records', 'Legal Terms and Policies']);
    assert.deepEqual(menuOf('finance'), ['Dashboard', 'Admin Accounts', 'Users', 'Reports', 'User Requests › User Deposit Requests', 'User Requests › User Withdraw Requests', 'Legal Terms and Policies']);
    assert.deepEqual(menuOf('finance', 'support'), menuOf('finance'));
    // No roles (a session answer without permissions): only what everyone sees.
    assert.deepEqual(labels(menuFor('admin')), ['Dashboard', 'Legal Terms and Policies']);
  });

  it('no staff page is offered to a role whose permission lacks it, and the trader menu is the trader\'s', () => {
    for (const role of STAFF_ROLES) {
      const menu = menuFor('admin', permissionsOf([role])).flatMap((e) => (isGroup(e) ? e.links : [e]));
      for (const link of menu) if (link.permission) assert.ok(permissionsOf([role]).includes(link.permission), `${role}: ${link.label}`);
    }
    assert.ok(labels(menuFor('trader')).includes('My Account › Trading Accounts'));
    assert.ok(!labels(menuFor('trader', permissionsOf(['administrator']))).includes('Staff'));
  });

  it('names the permission a page needs, its sub-pages included', () => {
    assert.equal(pagePermission('/dashboard/users'), 'traders.view');
    assert.equal(pagePermission('/dashboard/users/42'), 'traders.view');
    assert.equal(pagePermission('/dashboard/requests/user_withdraw_requests'), 'money.view');
    assert.equal(pagePermission('/dashboard/staff'), 'staff.manage');
    assert.equal(pagePermission('/dashboard/home'), undefined);
    assert.equal(pagePermission('/dashboard/users_archive'), undefined, 'a prefix of a word is not the page');
  });
});
