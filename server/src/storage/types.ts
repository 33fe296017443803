import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/** The database handle's types, apart from db.ts so that what db.ts builds on can name them too. */
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type Engine = 'sqlite' | 'postgres';
