import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DatabaseCheck, HEALTH_FRESH_MS } from '../src/services/health';

describe('the health check of the database', () => {
  test('a burst of health checks costs one query: a good answer stands for a second, and checks meanwhile share the query under way', async () => {
    let queries = 0;
    let clock = 1_000_000;
    const check = new DatabaseCheck(
      async () => {
        queries++;
        await new Promise((r) => setTimeout(r, 5));
      },
      () => clock,
    );
    assert.deepEqual(await Promise.all(Array.from({ length: 100 }, () => check.answers())), Array(100).fill(true));
    assert.equal(queries, 1, 'one query for 100 checks at once');
    clock += HEALTH_FRESH_MS - 1;
    assert.equal(await check.answers(), true);
    assert.equal(queries, 1, 'a good answer under a second old is reused');
    clock += 1;
    assert.equal(await check.answers(), true);
    assert.equal(queries, 2, 'then the database is asked again');
  });

  test('a database that stops answering is reported at the first check after the good answer has aged, and every failed check asks again', async () => {
    let up = true;
    let queries = 0;
    let clock = 0;
    const check = new DatabaseCheck(
      async () => {
        queries++;
        if (!up) throw new Error('connection refused');
      },
      () => clock,
    );
    assert.equal(await check.answers(), true);
    up = false;
    clock += HEALTH_FRESH_MS;
    assert.equal(await check.answers(), false);
    assert.equal(await check.answers(), false);
    assert.equal(queries, 3, 'a failure is never kept');
    up = true;
    assert.equal(await check.answers(), true, 'back as soon as it answers');
  });

  test('a query that never returns counts as no answer after the timeout, and does not hold the checks after it', async () => {
    let hang = true;
    let queries = 0;
    const check = new DatabaseCheck(
      () => {
        queries++;
        return hang ? new Promise(() => undefined) : Promise.resolve();
      },
      Date.now,
      50,
    );
    const started = Date.now();
    assert.equal(await check.answers(), false);
    assert.ok(Date.now() - started < 1000, 'given up after the timeout');
    hang = false;
    assert.equal(await check.answers(), true, 'the next check asks again and gets the answer');
    assert.equal(queries, 2);
  });
});
