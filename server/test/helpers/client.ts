import type { TestApp } from './app';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './app';

/** A browser-like API client: keeps cookies, sends this site's Origin on writes. */
export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

// Loose on purpose: tests read arbitrary fields of the spec's responses.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export class Client {
  private cookies = new Map<string, string>();
  origin: string | null;

  private readonly defaultHeaders: Record<string, string>;

  constructor(
    private readonly t: TestApp,
    opts: { origin?: string | null; headers?: Record<string, string> } = {},
  ) {
    this.origin = opts.origin === undefined ? t.origin : opts.origin;
    this.defaultHeaders = opts.headers ?? {};
  }

  /** The same signed-in client (its cookies shared), acting on another of the person's trading accounts (`X-Trading-Account`). */
  onAccount(accountId: number | string): Client {
    const c = new Client(this.t, { origin: this.origin, headers: { ...this.defaultHeaders, 'x-trading-account': String(accountId) } });
    c.cookies = this.cookies;
    return c;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  private absorb(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, init: { body?: string | FormData; headers?: Record<string, string> } = {}): Promise<Reply<Json>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...init.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    if (method !== 'GET' && this.origin) headers.origin = this.origin;
    const res = await fetch(`${this.t.url}${path}`, { method, headers, body: init.body });
    this.absorb(res);
    const text = await res.text();
    let body: Json = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body, headers: res.headers };
  }

  get(path: string): Promise<Reply<Json>> {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<Json>> {
    return this.request('POST', path, {
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    });
  }

  postForm(path: string, fields: Record<string, string | number>): Promise<Reply<Json>> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
    return this.request('POST', path, { body: form });
  }
}

let seq = 0;
export const uniqueEmail = (prefix = 'trader') => `${prefix}.${process.pid}.${++seq}.${Date.now().toString(36)}@example.com`;

export const US = 840;

export interface TraderOptions {
  firstName?: string;
  lastName?: string;
  email?: string;
  password?: string;
}

export function registrationBody(o: TraderOptions = {}) {
  return {
    firstName: o.firstName ?? 'Tess',
    lastName: o.lastName ?? 'Trader',
    phoneNo: '4915112345678',
    email: o.email ?? uniqueEmail(),
    password: o.password ?? 'violet-harbour-42',
    country_id: US,
  };
}

/** Signs up a new trader and returns a client signed in as them. */
export async function signedInTrader(t: TestApp, o: TraderOptions = {}): Promise<{ client: Client; email: string; password: string; id: number }> {
  const body = registrationBody(o);
  const client = new Client(t);
  const reg = await client.post('/registration.php', body);
  if (reg.body.status !== 'Success') throw new Error(`sign-up failed: ${JSON.stringify(reg.body)}`);
  const login = await client.post('/login.php', { email: body.email, password: body.password });
  if (login.body.status !== 'Success') throw new Error(`sign-in failed: ${JSON.stringify(login.body)}`);
  const profile = await client.get('/dashboard/customer/getProfileDetails.php');
  return { client, email: body.email, password: body.password, id: profile.body.data[0].id as number };
}

export type SignedInTrader = Awaited<ReturnType<typeof signedInTrader>>;

export async function signedInAdmin(t: TestApp): Promise<Client> {
  const client = new Client(t);
  const login = await client.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  if (login.body.status !== 'Success') throw new Error(`admin sign-in failed: ${JSON.stringify(login.body)}`);
  return client;
}

/** A staff member with these roles, added by the administrator `admin` and signed in. */
export async function signedInStaff(t: TestApp, admin: Client, roles: string[], o: { firstName?: string } = {}): Promise<{ client: Client; email: string; password: string; id: number }> {
  const email = uniqueEmail('staff');
  const password = 'Staff-Pass-4-Tests';
  const added = await admin.post('/dashboard/admin/addStaffMember.php', { firstName: o.firstName ?? 'Staff', lastName: roles.join(' '), email, password, roles });
  if (added.body.status !== 'success') throw new Error(`adding staff failed: ${JSON.stringify(added.body)}`);
  const client = new Client(t);
  const login = await client.post('/login.php', { email, password });
  if (login.body.status !== 'Success') throw new Error(`staff sign-in failed: ${JSON.stringify(login.body)}`);
  return { client, email, password, id: added.body.member.id as number };
}

/** Adds an active payment account as the admin and returns its id. */
export async function paymentAccount(admin: Client, name = 'Main bank'): Promise<number> {
  const r = await admin.postForm('/dashboard/admin/addNewPayments.php', { name, number: 'GB29NWBK60161331926819', moreInfo: 'Reference: your email', isActive: 1 });
  if (r.body.status !== 'success') throw new Error(`payment account failed: ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

/** Deposits `amount` for the trader and approves it as the admin. */
export async function fund(trader: Client, admin: Client, gatewayId: number, amount: string): Promise<number> {
  const d = await trader.post('/platform/addDeposite.php', { depositAmount: amount, paymentAccount: '1234', payment_getways_id: gatewayId });
  if (d.body.status !== 'success') throw new Error(`deposit failed: ${JSON.stringify(d.body)}`);
  const a = await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: d.body.id, status: 1 });
  if (a.body.status !== 'success') throw new Error(`approval failed: ${JSON.stringify(a.body)}`);
  return d.body.id as number;
}

export { ADMIN_EMAIL, ADMIN_PASSWORD };
