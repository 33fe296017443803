/**
 * What a service says when it refuses. Services do not know HTTP; the transport maps each kind
 * to a status code and the spec's `{status: 'Failure', message}` body.
 */
/** 'unavailable' is a refusal to do the work right now (a bounded resource is full): retryable, 503. */
export type RefusalKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not-found' | 'conflict' | 'too-large' | 'too-many' | 'unknown-account' | 'unavailable';

export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** The spec's `status` string, when a call uses one other than 'Failure'. */
    readonly status: string = 'Failure',
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

export const refuse = {
  invalid: (message: string) => new Refusal('invalid', message),
  unauthenticated: (message = 'Please sign in to continue.') => new Refusal('unauthenticated', message),
  forbidden: (message = 'You are not allowed to do this.') => new Refusal('forbidden', message),
  notFound: (message: string) => new Refusal('not-found', message),
  conflict: (message: string) => new Refusal('conflict', message),
  tooMany: (message: string) => new Refusal('too-many', message),
  tooLarge: (message = 'The request is too large.') => new Refusal('too-large', message),
};
