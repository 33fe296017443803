import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './db';
import { initialMigration } from './migrations/0001-initial';
import { marketMigration } from './migrations/0002-market';
import { tradingMigration } from './migrations/0003-trading';
import { passwordResetMigration } from './migrations/0004-password-resets';
import { calendarsMigration } from './migrations/0005-calendars';
import { fillTicksMigration } from './migrations/0006-fill-ticks-deferred-swap';
import { terminalMigration } from './migrations/0007-terminal';
import { chartLayoutsMigration } from './migrations/0008-chart-layouts';
import { orderHistoryMigration } from './migrations/0009-order-history';
import { engineEpochMigration } from './migrations/0010-engine-epoch';
import { idempotencyPruningMigration } from './migrations/0011-idempotency-pruning';
import { engineLeaderMigration } from './migrations/0012-engine-leader';
import { engineLeaderLivenessMigration } from './migrations/0013-engine-leader-liveness';
import { requestCancelMigration } from './migrations/0014-request-cancel';
import { adjustmentsCreditNotesMigration } from './migrations/0015-adjustments-credit-notes';
import { legalAcceptancesMigration } from './migrations/0016-legal-acceptances';
import { priceTableMigration } from './migrations/0017-price-table';
import { auditSubjectsMigration } from './migrations/0018-audit-subjects';
import { readIndexesMigration } from './migrations/0019-read-indexes';
import { nameSortKeysMigration } from './migrations/0020-name-sort-keys';
import { tradingAccountsMigration } from './migrations/0021-trading-accounts';
import { auditAccountsMigration } from './migrations/0022-audit-accounts';
import { accountTypesMigration } from './migrations/0023-account-types';
import { positionAccountKindMigration } from './migrations/0024-position-account-kind';
import { commissionMigration } from './migrations/0025-commission';
import { typeSymbolsMigration } from './migrations/0026-type-symbols';
import { instrumentModesMigration } from './migrations/0038-instrument-modes';
import { marginRateMigration } from './migrations/0039-margin-rate';
import { staffRolesMigration } from './migrations/0040-staff-roles';
import { secondApprovalMigration } from './migrations/0041-second-approval';
import { twoFactorMigration } from './migrations/0042-two-factor';
import { signInsMigration } from './migrations/0043-sign-ins';
import { typeInstrumentsMigration } from './migrations/0027-type-instruments';
import { leverageLimitsMigration } from './migrations/0028-leverage-limits';
import { ledgerAccountTypeMigration } from './migrations/0029-ledger-account-type';
import { typeSwapsMigration } from './migrations/0030-type-swaps';
import { partialCloseMigration } from './migrations/0031-partial-close';
import { trailingStopsMigration } from './migrations/0032-trailing-stops';
import { priceAlertsMigration } from './migrations/0033-price-alerts';
import { notificationsMigration } from './migrations/0034-notifications';
import { pendingTrailingMigration } from './migrations/0035-pending-trailing';
import { typeMarkupsMigration } from './migrations/0036-type-markups';
import { dealMarkupsMigration } from './migrations/0037-deal-markups';

/** Migrations live in code (not scanned from disk) so they ship with the server whatever runs it. */
class CodeMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

/** The migrator of this code's migrations (tests use it to stop at an earlier one). */
export function migratorFor(handle: DatabaseHandle): Migrator {
  return new Migrator({
    db: handle.db,
    provider: new CodeMigrationProvider({
      '0001-initial': initialMigration(handle.engine),
      '0002-market': marketMigration(handle.engine),
      '0003-trading': tradingMigration(handle.engine),
      '0004-password-resets': passwordResetMigration(handle.engine),
      '0005-calendars': calendarsMigration(),
      '0006-fill-ticks-deferred-swap': fillTicksMigration(handle.engine),
      '0007-terminal': terminalMigration(handle.engine),
      '0008-chart-layouts': chartLayoutsMigration(handle.engine),
      '0009-order-history': orderHistoryMigration(),
      '0010-engine-epoch': engineEpochMigration(),
      '0011-idempotency-pruning': idempotencyPruningMigration(),
      '0012-engine-leader': engineLeaderMigration(),
      '0013-engine-leader-liveness': engineLeaderLivenessMigration(),
      '0014-request-cancel': requestCancelMigration(handle.engine),
      '0015-adjustments-credit-notes': adjustmentsCreditNotesMigration(handle.engine),
      '0016-legal-acceptances': legalAcceptancesMigration(handle.engine),
      '0017-price-table': priceTableMigration(handle.engine),
      '0018-audit-subjects': auditSubjectsMigration(handle.engine),
      '0019-read-indexes': readIndexesMigration(),
      '0020-name-sort-keys': nameSortKeysMigration(handle.engine),
      '0021-trading-accounts': tradingAccountsMigration(handle.engine),
      '0022-audit-accounts': auditAccountsMigration(handle.engine),
      '0023-account-types': accountTypesMigration(handle.engine),
      '0024-position-account-kind': positionAccountKindMigration(handle.engine),
      '0025-commission': commissionMigration(handle.engine),
      '0026-type-symbols': typeSymbolsMigration(),
      '0027-type-instruments': typeInstrumentsMigration(),
      '0028-leverage-limits': leverageLimitsMigration(),
      '0029-ledger-account-type': ledgerAccountTypeMigration(),
      '0030-type-swaps': typeSwapsMigration(handle.engine),
      '0031-partial-close': partialCloseMigration(),
      '0032-trailing-stops': trailingStopsMigration(),
      '0033-price-alerts': priceAlertsMigration(handle.engine),
      '0034-notifications': notificationsMigration(handle.engine),
      '0035-pending-trailing': pendingTrailingMigration(),
      '0036-type-markups': typeMarkupsMigration(),
      '0037-deal-markups': dealMarkupsMigration(handle.engine),
      '0038-instrument-modes': instrumentModesMigration(),
      '0039-margin-rate': marginRateMigration(handle.engine),
      '0040-staff-roles': staffRolesMigration,
      '0041-second-approval': secondApprovalMigration,
      '0042-two-factor': twoFactorMigration(handle.engine),
      '0043-sign-ins': signInsMigration(handle.engine),
    }),
  });
}

/** Names of migrations not yet applied to this database. */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  return (await migratorFor(handle).getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const migrator = migratorFor(handle);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
