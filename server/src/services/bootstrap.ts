import { randomBytes } from 'node:crypto';
import { ConfigError } from '../config';
import type { ServiceContext } from './context';
import { normalizeEmail } from './auth-service';
import { newUserRow } from './new-user';
import { hashPassword } from './passwords';

/**
 * Makes sure an administrator exists. The one created here is the spec's "reserved account": it
 * cannot be deactivated or edited from the users table. Without ADMIN_EMAIL/ADMIN_PASSWORD a random
 * password is generated and handed back once, for the caller to print.
 */
export async function ensureBootstrapAdmin(ctx: ServiceContext): Promise<{ created: false } | { created: true; email: string; generatedPassword: string | null }> {
  const existing = await ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirst();
  if (existing) return { created: false };
  const email = normalizeEmail(ctx.config.admin?.email ?? 'admin@tradeport.local');
  if (ctx.config.admin) {
    // The most privileged account gets the same password rules as everyone else.
    const problem = await ctx.passwordPolicy.check(ctx.config.admin.password, { email });
    if (problem) throw new ConfigError(`Invalid configuration:\n  - ADMIN_PASSWORD: ${problem}`);
  }
  const generatedPassword = ctx.config.admin ? null : randomBytes(12).toString('base64url');
  const password = ctx.config.admin?.password ?? (generatedPassword as string);
  const now = ctx.now();
  await ctx.db
    .insertInto('users')
    .values(newUserRow({ email, passwordHash: await hashPassword(password, ctx.config.scryptCost), firstName: 'Administrator', lastName: '', phoneNo: '', countryId: null, role: 'admin', staffRoles: 'administrator', reserved: true, now }))
    .execute();
  return { created: true, email, generatedPassword };
}
