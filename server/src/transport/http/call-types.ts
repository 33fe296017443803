import type { CallDefinition } from '@tradeport/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../../services/context';
import type { SessionUser } from '../../services/sessions';
import type { FileAnswer } from './file-answer';

/**
 * What a call's handler is given and answers (`registerCall`, call-route.ts), apart from the
 * registration itself, so that what wraps handlers (order-calls.ts) needs nothing of the route.
 */

type Input<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface CallInput<C extends CallDefinition> {
  body: Input<C['body']>;
  query: Input<C['query']>;
  /** Present for every access level but 'public' (where it may be null). */
  session: C['access'] extends 'public' | 'feed' ? SessionUser | null : SessionUser;
  actor: C['access'] extends 'public' | 'feed' ? Actor | null : Actor;
  idempotencyKey: string | undefined;
  client: { ip: string; userAgent: string };
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A call that `produces` a file answers with one; every other call with its JSON. */
type Answer<C extends CallDefinition> = C['produces'] extends readonly string[] ? FileAnswer : z.input<C['response']>;
export type CallHandler<C extends CallDefinition> = (input: CallInput<C>) => Promise<Answer<C>>;
