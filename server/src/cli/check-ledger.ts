import { loadConfig } from '../config';
import { ledgerReport } from '../services/ledger';
import { openDatabase } from '../storage/db';
import { pendingMigrations } from '../storage/migrate';

/**
 * `npm run ledger:check`: proves, on the database DATABASE_URL names, that every trading account's balance equals the
 * sum of its balance entries and every credit the sum of its credit entries, that no credit is
 * below zero, and that every balance adjustment or credit operation of the back office was posted
 * exactly once. Exits 1 and lists what disagrees, if anything.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = openDatabase(config.databaseUrl);
  try {
    // A read-only check: it never changes the schema under a running server.
    const pending = await pendingMigrations(handle);
    if (pending.length > 0) throw new Error(`The database schema is not up to date (pending: ${pending.join(', ')}). Start the server once to migrate it.`);
    const report = await ledgerReport(handle.db);
    const { mismatches, negativeCredit, unpostedOperations, strayEntries } = report;
    if (mismatches.length === 0 && negativeCredit.length === 0 && unpostedOperations.length === 0 && strayEntries.length === 0) {
      console.log(
        `Ledger check passed: ${report.accounts} trading accounts (live and demo); every balance equals the sum of its ${report.balanceEntries} balance entries, every credit the sum of its ${report.creditEntries} credit entries, no credit is below zero, every balance operation is posted once, and every entry names an account of its holder.`,
      );
      return;
    }
    console.error('Ledger check FAILED:');
    for (const m of mismatches) {
      if (m.balanceCents !== m.ledgerBalanceCents) console.error(`  account ${m.accountId} (user ${m.userId}): balance ${m.balanceCents} cents, but its balance entries sum to ${m.ledgerBalanceCents}`);
      if (m.creditCents !== m.ledgerCreditCents) console.error(`  account ${m.accountId} (user ${m.userId}): credit ${m.creditCents} cents, but its credit entries sum to ${m.ledgerCreditCents}`);
    }
    for (const n of negativeCredit) console.error(`  account ${n.accountId} (user ${n.userId}): credit ${n.creditCents} cents is below zero`);
    for (const o of unpostedOperations) console.error(`  user ${o.userId}: ${o.kind} operation #${o.operationId} has no ledger entry for its amount`);
    for (const e of strayEntries) console.error(`  entry #${e.entryId} of user ${e.userId} names ${e.accountId === null ? 'no account' : `account ${e.accountId}, which another person holds`}`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
