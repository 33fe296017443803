import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * How the back office's mutations change what is cached: read again what a change touched, or show
 * the change at once and take it back if the server refuses (`optimisticChange`).
 */

/** A list answer of the admin calls: its rows in `data`. */
export type Listing<Row> = { status: 'success'; data: Row[] };

export function invalidate(client: QueryClient, keys: readonly QueryKey[]) {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

/** Changes every cached answer under `prefix` (each page, search and order of a list). */
export function updateAnswers<Answer>(client: QueryClient, prefix: QueryKey, change: (answer: Answer, key: QueryKey) => Answer) {
  for (const [key, answer] of client.getQueriesData<Answer>({ queryKey: prefix })) if (answer !== undefined) client.setQueryData(key, change(answer, key));
}

/** The rows of a listing changed by `change`, the rest of the answer as it was. */
export const withRows = <Row>(answer: Listing<Row>, change: (rows: Row[]) => Row[]): Listing<Row> => ({ ...answer, data: change(answer.data) });

/** What an optimistic change does to the answers cached under its key. */
export interface Change<Vars, Answer, Memory> {
  /** What `undo` will need, read from the cached answers (key and answer) before the change. */
  remember: (vars: Vars, answers: readonly (readonly [QueryKey, Answer])[]) => Memory;
  /** One answer with the change made. */
  apply: (answer: Answer, vars: Vars) => Answer;
  /** One answer with the change taken back, unless a refetch has already put it right (then unchanged). */
  undo: (answer: Answer, vars: Vars, memory: Memory, key: QueryKey) => Answer;
}

/**
 * A row action shown before the server answers: the `onMutate` and `onError` of its mutation. The
 * queries under `key` stop fetching (so no answer lands over the change), every cached answer shows
 * the change at once, and if the server refuses, each is put back as it was. What to read again
 * once it settles stays with the mutation's own `onSettled`.
 */
export function optimisticChange<Vars, Answer, Memory>(client: QueryClient, key: QueryKey, change: Change<Vars, Answer, Memory>) {
  return {
    onMutate: async (vars: Vars) => {
      await client.cancelQueries({ queryKey: key });
      const answers = client.getQueriesData<Answer>({ queryKey: key }).filter((entry): entry is [QueryKey, Answer] => entry[1] !== undefined);
      const memory = change.remember(vars, answers);
      updateAnswers<Answer>(client, key, (answer) => change.apply(answer, vars));
      return { memory };
    },
    onError: (_error: unknown, vars: Vars, result: { memory: Memory } | undefined) => {
      if (result) updateAnswers<Answer>(client, key, (answer, at) => change.undo(answer, vars, result.memory, at));
    },
  };
}
