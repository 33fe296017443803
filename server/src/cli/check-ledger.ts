import { loadConfig } from '../config';
import { findLedgerMismatches } from '../services/ledger';
import { openDatabase } from '../storage/db';
import { pendingMigrations } from '../storage/migrate';

/**
 * `npm run ledger:check`: proves that every balance equals the sum of its ledger entries, on the
 * database DATABASE_URL names. Exits 1 and lists the accounts that disagree, if any.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = openDatabase(config.databaseUrl);
  try {
    // A read-only check: it never changes the schema under a running server.
    const pending = await pendingMigrations(handle);
    if (pending.length > 0) throw new Error(`The database schema is not up to date (pending: ${pending.join(', ')}). Start the server once to migrate it.`);
    const mismatches = await findLedgerMismatches(handle.db);
    const users = await handle.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (mismatches.length === 0) {
      console.log(`Ledger check passed: ${Number(users.n)} accounts, every balance equals the sum of its ledger entries.`);
    } else {
      console.error(`Ledger check FAILED for ${mismatches.length} account(s):`);
      for (const m of mismatches) console.error(`  user ${m.userId}: balance ${m.balanceCents} vs ledger ${m.ledgerBalanceCents} cents; credit ${m.creditCents} vs ledger ${m.ledgerCreditCents} cents`);
      process.exitCode = 1;
    }
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
