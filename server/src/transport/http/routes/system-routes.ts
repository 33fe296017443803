import { calls, failureResponse, rolesHolding, type CallDefinition } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { databaseAnswers } from '../../../services/health';
import { jsonSchema } from '../json-schemas';
import { sendFailure } from '../responses';
import { currentSession, SESSION_COOKIE } from '../session-cookie';

/** Health and the generated API document. */
export function systemRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  // Not in the calls table: health and the document itself are for operators, not the web app.
  // Role-independent: a follower is as healthy as the leader (a balancer sends it traffic too).
  // Anyone may ask, so it names the instance only by its INSTANCE_NAME (by default a random name
  // that says nothing of the host); where the instance runs (host name, port, process) is added
  // for an administrator's session only. A balancer sends no cookie, so its checks read no session.
  app.get('/api/health', async (request, reply) => {
    if (!(await databaseAnswers(ctx))) return sendFailure(reply, 503, 'Database unavailable.');
    reply.header('cache-control', 'no-store');
    const health = { status: 'success', database: ctx.engine, feeds: app.market.providerNames(), ...app.cluster.health() };
    if (!request.cookies?.[SESSION_COOKIE]) return health;
    const session = await currentSession(request).catch(() => null);
    return session?.role === 'admin' ? { ...health, host: ctx.config.instanceHost, pid: process.pid } : health;
  });

  let document: object | null = null;
  app.get('/api/docs', async () => (document ??= openApiDocument(Object.values(calls))));
}

const failure = { description: 'Refused: `{status: "Failure", message}` (the message says why; nothing was changed).', content: { 'application/json': { schema: jsonSchema(failureResponse, 'output') } } };

export function openApiDocument(list: CallDefinition[]): object {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of list) {
    const operation: Record<string, unknown> = {
      summary: call.summary,
      description: `Access: ${call.access}${call.permission ? ` with the permission ${call.permission} (${rolesHolding(call.permission).join(', ')})` : ''}.${call.idempotent ? ' Accepts an `Idempotency-Key` header: a retry with the same key returns the first result.' : ''}${call.method === 'POST' ? ' State-changing: the `Origin` (or `Referer`) must be this site.' : ''}`,
      tags: [call.access],
      responses: {
        '200': call.produces
          ? { description: `A ${call.produces.join(' or ')} file, sent as an attachment`, content: Object.fromEntries(call.produces.map((type) => [type, { schema: { type: 'string' } }])) }
          : { description: 'OK', content: { 'application/json': { schema: jsonSchema(call.response, 'output') } } },
        '4XX': failure,
      },
    };
    if (call.body) {
      const schema = jsonSchema(call.body, 'input');
      operation.requestBody = {
        required: true,
        content: call.encoding === 'multipart' ? { 'multipart/form-data': { schema }, 'application/json': { schema } } : { 'application/json': { schema } },
      };
    }
    if (call.query) {
      const schema = jsonSchema(call.query, 'input') as { properties?: Record<string, object> };
      operation.parameters = Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: false, schema: s }));
    }
    paths[`/api${call.path}`] = { [call.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Tradeport API', version: '0.1.0', description: 'The calls of the product specification (section 7), served verbatim under /api, plus additions in the same style. Sessions are cookies set by /api/login.php.' },
    paths,
  };
}
