import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config';
import { hashPassword } from '../services/passwords';
import { retireResetLinks, revokeUserSessions } from '../services/sessions';
import { openDatabase } from '../storage/db';
import { pendingMigrations } from '../storage/migrate';

/**
 * `npm run admin:reset-password [-- email]`: the way back in when the built-in administrator's
 * password is lost. Sets a new random password for that account (or for the administrator with the
 * given email), ends its sessions, and prints the password once. Run it on the server host, with the
 * same DATABASE_URL as the server.
 */
async function main(): Promise<void> {
  const email = process.argv[2]?.trim().toLowerCase();
  const config = loadConfig();
  const handle = openDatabase(config.databaseUrl);
  try {
    if ((await pendingMigrations(handle)).length > 0) throw new Error('The database schema is not up to date. Start the server once to migrate it.');
    let q = handle.db.selectFrom('users').select(['id', 'email']).where('role', '=', 'admin');
    q = email ? q.where('email', '=', email) : q.where('is_reserved', '=', 1);
    const admin = await q.executeTakeFirst();
    if (!admin) throw new Error(email ? `No administrator with the email ${email}.` : 'No built-in administrator found.');
    const password = randomBytes(12).toString('base64url');
    const hash = await hashPassword(password, config.scryptCost);
    const now = Date.now();
    await handle.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: hash, is_active: 1, updated_at: now }).where('id', '=', admin.id).execute();
      await revokeUserSessions(trx, admin.id, now);
      await retireResetLinks(trx, admin.id, now);
      await trx.deleteFrom('login_throttle').where('email', '=', admin.email).execute();
      await trx.insertInto('audit_log').values({ actor_id: null, action: 'user.password', target_type: 'user', target_id: String(admin.id), before_json: 'null', after_json: JSON.stringify({ passwordChanged: true, by: 'admin:reset-password' }), ip: 'console', created_at: now }).execute();
    });
    console.log(`New password for ${admin.email}: ${password}\nIt is shown only now; all of this account's sessions have ended.`);
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
