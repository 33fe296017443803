import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { prepared, type Param } from '../src/storage/prepared';
import { startApp, type TestApp } from './helpers/app';
import { signedInTrader } from './helpers/client';

describe('prepared statements', () => {
  let t: TestApp;
  const ids: number[] = [];
  before(async () => {
    t = await startApp();
    for (const firstName of ['Ada', 'Grace', 'Linus']) ids.push((await signedInTrader(t, { firstName })).id);
  });
  after(() => t.close());

  const byIdAndRole = prepared((db, param: Param<{ id: number; role: 'trader' | 'admin' }>) =>
    db.selectFrom('users').select(['id', 'first_name']).where('id', '=', param('id')).where('role', '=', param('role')).where('is_active', '=', 1),
  );

  test('each run substitutes its own values and answers like the query built anew', async () => {
    for (const id of ids) {
      const built = await t.ctx.db.selectFrom('users').select(['id', 'first_name']).where('id', '=', id).where('role', '=', 'trader').where('is_active', '=', 1).execute();
      assert.deepEqual(await byIdAndRole.all(t.ctx.db, { id, role: 'trader' }), built);
    }
    assert.deepEqual(await byIdAndRole.all(t.ctx.db, { id: ids[0]!, role: 'admin' }), [], 'the second value is a parameter too');
  });

  test('values stay values: text that looks like SQL is only compared, never run', async () => {
    const byName = prepared((db, param: Param<{ name: string }>) => db.selectFrom('users').select('id').where('first_name', '=', param('name')));
    assert.deepEqual(await byName.all(t.ctx.db, { name: "Ada' or '1'='1" }), []);
    assert.equal((await byName.all(t.ctx.db, { name: 'Grace' })).length, 1);
  });

  test('first() gives the first row or undefined; exec() reports changed rows', async () => {
    assert.equal((await byIdAndRole.first(t.ctx.db, { id: ids[1]!, role: 'trader' }))?.first_name, 'Grace');
    assert.equal(await byIdAndRole.first(t.ctx.db, { id: 999_999, role: 'trader' }), undefined);
    const rename = prepared((db, param: Param<{ id: number; name: string }>) => db.updateTable('users').set({ nationality: param('name') }).where('id', '=', param('id')));
    const result = await rename.exec(t.ctx.db, { id: ids[2]!, name: 'Finnish' });
    assert.equal(Number(result.numAffectedRows), 1);
  });

  test('it runs inside a transaction, seeing that transaction’s writes', async () => {
    const nationalityOf = prepared((db, param: Param<{ id: number }>) => db.selectFrom('users').select('nationality').where('id', '=', param('id')));
    await t.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ nationality: 'Icelandic' }).where('id', '=', ids[0]!).execute();
      assert.equal((await nationalityOf.first(trx, { id: ids[0]! }))?.nationality, 'Icelandic');
    });
  });

  test('a missing value is an error, not a query with a placeholder in it', async () => {
    await assert.rejects(byIdAndRole.all(t.ctx.db, { id: ids[0]! } as { id: number; role: 'trader' }), /no value for role/);
  });
});
