import { sql } from 'kysely';
import type { ServiceContext } from './context';

/** Whether the database answers a trivial query. */
export async function databaseAnswers(ctx: ServiceContext): Promise<boolean> {
  try {
    await sql`select 1`.execute(ctx.db);
    return true;
  } catch {
    return false;
  }
}
