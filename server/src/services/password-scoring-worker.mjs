import { parentPort, workerData } from 'node:worker_threads';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';

/*
 * The password scorer's thread, started by password-scoring.ts. zxcvbn-ts's time grows with the
 * password's length, and on the main thread it held every other request; here it holds only this
 * thread. The factory ranks the dictionaries once (about 0.1 s), when the thread starts; the thread
 * then says it is ready and answers one scoring per message, in order.
 *
 * It is plain JavaScript on purpose: it needs nothing of the server's TypeScript, so it loads the
 * same way under `node --import tsx` (npm start, the tests) as under any other runner, and a thread
 * does not pay for starting the TypeScript loader. The messages are typed in password-scoring.ts.
 */

const port = parentPort;
if (port === null) throw new Error('password-scoring-worker.mjs runs as a worker thread only');
const { maxLength } = workerData;

const zxcvbn = new ZxcvbnFactory({
  translations,
  graphs: adjacencyGraphs,
  dictionary: { ...commonDictionary, ...englishDictionary },
  // The library cuts the password to this length itself; the pool sends no more than this anyway.
  maxLength,
});

port.on('message', (request) => {
  let answer;
  try {
    const result = zxcvbn.check(request.password, request.userInputs);
    answer = { id: request.id, score: result.score, warning: result.feedback.warning, suggestions: result.feedback.suggestions };
  } catch (err) {
    answer = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer);
});
port.postMessage({ ready: true });
