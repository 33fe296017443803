import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import Fastify from 'fastify';
import { clusterKeys, type ClusterKeys } from '../../src/cluster-keys';
import { ANSWER_HEADER, answerSignature, FORWARDED_HEADER } from '../../src/cluster/forwarded-signature';
import { Forwarder, type Leading } from '../../src/cluster/forwarding';

/**
 * A follower's forwarding without a whole instance: a `Forwarder` behind a Fastify app with the
 * routes of an order (POST addTrades) and a read (GET getTrades), each forwarding as call-route.ts
 * does, and the stand-in leaders and databases the tests listen with, all closed by `closeListeners`.
 */
const sockets = new Set<Socket>();
const servers: Server[] = [];

export const ORDER_URL = '/api/platform/addTrades.php';
export const READ_URL = '/api/platform/getTrades.php';
/** The cluster's keys in these tests (CLUSTER_SECRET). */
export const TEST_KEYS: ClusterKeys = clusterKeys('the forwarding tests share this cluster secret');

/**
 * A stand-in leader's answer, signed with `TEST_KEYS` as a leader signs its answers to forwarded
 * calls (the follower passes on nothing unsigned).
 */
export function answerSigned(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  const signature = signedAnswer(TEST_KEYS, status, req.headers[FORWARDED_HEADER], body, headers);
  res.writeHead(status, { ...headers, ...(signature ? { [ANSWER_HEADER]: signature } : {}) });
  res.end(body);
}

/**
 * A leader's signature (`keys`) on an answer with `status`, `body` and `headers` to the call whose
 * FORWARDED_HEADER is `forwarded` (its MAC is the header's last part); null without one.
 */
export function signedAnswer(keys: ClusterKeys, status: number, forwarded: unknown, body: string | Buffer, headers: Record<string, string | string[] | number | undefined>): string | null {
  if (typeof forwarded !== 'string') return null;
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return answerSignature(keys, status, forwarded.split(' ').at(-1)!, body, (name) => lower.get(name));
}

/** Listens on a free loopback port; the server's address (`http://127.0.0.1:<port>`). */
export async function listening(server: Server): Promise<string> {
  servers.push(server);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops the server listening at `address` (nothing listens there afterwards). */
export async function stopListening(address: string): Promise<void> {
  const port = Number(new URL(address).port);
  const server = servers.find((s) => (s.address() as AddressInfo | null)?.port === port);
  if (!server) throw new Error(`nothing of ours listens at ${address}`);
  servers.splice(servers.indexOf(server), 1);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Ends every connection and server `listening` started (a describe's `after`). */
export function closeListeners(): void {
  for (const s of sockets) s.destroy();
  for (const s of servers.splice(0)) s.close();
}

export interface FollowerOptions {
  /** Who leads and how: a follower of a shared cluster, with no engine loading, unless given. */
  leading?: Partial<Leading>;
  /** The cluster's keys: `TEST_KEYS` unless given. */
  keys?: ClusterKeys | null;
  /** The leader's address, as PostgreSQL would say it. */
  lookup: () => Promise<string | { address: string; keyId?: string } | null>;
  deadlineMs?: number;
  lookupDeadlineMs?: number;
  idleMs?: number;
}

export interface TestFollower {
  forwarder: Forwarder;
  /** Sends one call to the follower (the order, unless told otherwise); its answer and how long it took. */
  call(options?: { method?: 'GET' | 'POST'; url?: string; payload?: Record<string, unknown> }): Promise<{ res: Awaited<ReturnType<ReturnType<typeof Fastify>['inject']>>; ms: number }>;
  close(): Promise<void>;
}

export function follower(options: FollowerOptions): TestFollower {
  const leading: Leading = { role: 'follower', shared: true, leaderWithin: async () => false, ...options.leading };
  const forwarder = new Forwarder(leading, options.keys === undefined ? TEST_KEYS : options.keys, options.lookup, options.deadlineMs, options.lookupDeadlineMs, options.idleMs);
  const app = Fastify({ logger: false });
  for (const [method, url] of [['POST', ORDER_URL], ['GET', READ_URL]] as const) {
    app.route({
      method,
      url,
      handler: async (request, reply) => {
        if (!(await forwarder.route(request, reply))) return reply.send({ status: 'success', message: 'carried out here' });
        return reply;
      },
    });
  }
  return {
    forwarder,
    async call({ method = 'POST', url = method === 'GET' ? READ_URL : ORDER_URL, payload = { fullSymbol: 'EURUSD' } } = {}) {
      const started = Date.now();
      const res = await app.inject(method === 'GET' ? { method, url } : { method, url, payload });
      return { res, ms: Date.now() - started };
    },
    async close() {
      forwarder.close();
      await app.close();
    },
  };
}
