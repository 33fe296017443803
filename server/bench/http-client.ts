/** The few API calls the HTTP benchmarks make to set up their accounts, with the browser's Origin. */
export interface Reply {
  status: number;
  body: Record<string, unknown>;
  cookie: string | null;
}

export async function call(origin: string, path: string, init: { body?: unknown; form?: Record<string, string>; cookie?: string }): Promise<Reply> {
  const headers: Record<string, string> = { origin };
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | FormData | undefined;
  if (init.form) {
    body = new FormData();
    for (const [k, v] of Object.entries(init.form)) body.append(k, v);
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(`${origin}/api${path}`, { method: 'POST', headers, body });
  const cookie = res.headers.getSetCookie().map((line) => line.split(';')[0] as string).find((pair) => pair.startsWith('tp_session=')) ?? null;
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, cookie };
}

export function expectOk(what: string, r: Reply): Reply {
  if (r.status !== 200 || !['success', 'Success'].includes(String(r.body.status))) throw new Error(`${what} failed (${r.status}): ${JSON.stringify(r.body)}`);
  return r;
}
