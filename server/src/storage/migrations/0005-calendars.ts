import type { Kysely } from 'kysely';

/** Holiday closures and early closes of each instrument's group, as the catalogue writes them (JSON, or null). */
export function calendarsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('instruments').addColumn('calendar_json', 'text').execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
