import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ApiError, callApi, fetchFile, MESSAGES, onUnauthorized } from '../src/api/client';

type FetchArgs = { url: string; init: RequestInit };
const realFetch = globalThis.fetch;

/** Replaces fetch with one answering `respond(url, init)`; returns the calls it saw. */
function stubFetch(respond: (call: FetchArgs) => Promise<Response> | Response): FetchArgs[] {
  const calls: FetchArgs[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return respond({ url, init });
  }) as typeof fetch;
  return calls;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the API client', () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
    onUnauthorized(null);
  });

  it('sends GET calls with their query and POST calls as JSON to the contract path', async () => {
    const calls = stubFetch(() => json(200, { status: 'success', data: [] }));
    await callApi('getCandles', { symbol: 'EURUSD', period: 'H1', limit: 10 });
    await callApi('addDeposite', { depositAmount: '10', paymentAccount: '1234', payment_getways_id: 1 }, { idempotencyKey: 'k-1' });
    assert.equal(calls[0]!.url, '/api/platform/getCandles.php?symbol=EURUSD&period=H1&limit=10');
    assert.equal(calls[0]!.init.method, 'GET');
    assert.equal(calls[1]!.url, '/api/platform/addDeposite.php');
    assert.equal(calls[1]!.init.method, 'POST');
    assert.deepEqual(JSON.parse(String(calls[1]!.init.body)), { depositAmount: '10', paymentAccount: '1234', payment_getways_id: 1 });
    assert.equal((calls[1]!.init.headers as Record<string, string>)['idempotency-key'], 'k-1');
  });

  it('fetches an export as a file with the name and row count the server gave, and turns its refusal into an ApiError', async () => {
    const csv = '\uFEFFRequest,Type\r\n7,Deposit\r\n';
    const calls = stubFetch(() => new Response(csv, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="tradeport-deposit-requests-start-to-2026-03-04.csv"', 'x-export-rows': '1' } }));
    const file = await fetchFile('exportMoneyRequests', { type: 'deposit', status: '1' });
    assert.equal(calls[0]!.url, '/api/dashboard/admin/exportMoneyRequests.php?type=deposit&status=1');
    assert.deepEqual([file.fileName, file.rows], ['tradeport-deposit-requests-start-to-2026-03-04.csv', 1]);
    assert.deepEqual(new Uint8Array(await file.blob.arrayBuffer()), new TextEncoder().encode(csv), 'the bytes as sent, byte-order mark included');
    stubFetch(() => json(400, { status: 'Failure', message: '120,000 requests match these filters; one export holds at most 100,000.' }));
    await assert.rejects(fetchFile('exportMoneyRequests', {}), (err: unknown) => err instanceof ApiError && err.httpStatus === 400 && err.message === '120,000 requests match these filters; one export holds at most 100,000.');
    let ended = 0;
    onUnauthorized(() => ended++);
    stubFetch(() => json(401, { status: 'Failure', message: 'Please sign in to continue.' }));
    await assert.rejects(fetchFile('exportAuditLog', {}));
    assert.equal(ended, 1, 'an ended session is reported as for any signed-in call');
  });

  it('turns a refusal into an ApiError with the server message and status', async () => {
    stubFetch(() => json(409, { status: 'Failure', message: 'This request was already decided.' }));
    await assert.rejects(callApi('getProfileDetails'), (err: unknown) => err instanceof ApiError && err.httpStatus === 409 && err.status === 'Failure' && err.message === 'This request was already decided.');
  });

  it('keeps the spec status of a refused sign-in', async () => {
    stubFetch(() => json(401, { status: 'This account does not exist', message: 'No account.' }));
    await assert.rejects(callApi('login', { email: 'a@b.c', password: 'x' }), (err: unknown) => err instanceof ApiError && err.status === 'This account does not exist');
  });

  it('reports a 401 on a signed-in call (the session ended) but not on a public one', async () => {
    let ended = 0;
    onUnauthorized(() => ended++);
    stubFetch(() => json(401, { status: 'Failure', message: 'Please sign in to continue.' }));
    await assert.rejects(callApi('getProfileDetails'));
    assert.equal(ended, 1);
    await assert.rejects(callApi('login', { email: 'a@b.c', password: 'x' }));
    assert.equal(ended, 1, 'a wrong password is not an ended session');
  });

  it('gives up after the time-out with a readable message', async () => {
    stubFetch(({ init }) => new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))));
    // Node does not keep the process alive for AbortSignal.timeout's timer; this one does, meanwhile.
    const keepAlive = setTimeout(() => undefined, 5000);
    try {
      await assert.rejects(callApi('getProfileDetails', undefined, { timeoutMs: 30 }), (err: unknown) => err instanceof ApiError && err.httpStatus === 0 && err.message === MESSAGES.timeout);
    } finally {
      clearTimeout(keepAlive);
    }
  });

  it('says the server could not be reached when the network fails', async () => {
    stubFetch(() => Promise.reject(new TypeError('fetch failed')));
    await assert.rejects(callApi('getProfileDetails'), (err: unknown) => err instanceof ApiError && err.message === MESSAGES.offline);
  });

  it('refuses an answer that is not JSON', async () => {
    stubFetch(() => new Response('<html>proxy error</html>', { status: 502 }));
    await assert.rejects(callApi('getProfileDetails'), (err: unknown) => err instanceof ApiError && err.httpStatus === 502 && err.message === MESSAGES.unreadable);
  });
});
