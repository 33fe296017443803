import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Quote, SymbolRecord } from '@tradeport/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendFailure } from '../transport/http/responses';
import { catalogueRows } from '../transport/http/routes/market-routes';
import type { SessionUser } from '../services/sessions';
import { currentSession, SESSION_COOKIE } from '../transport/http/session-cookie';

const defaultWebDist = () => resolve(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Files under `assets/` carry a content hash in their names (Vite), so they never change: browsers
 * keep them a year without asking. Everything else, index.html first (also when it answers a
 * client-side route), is revalidated on every load (ETag / Last-Modified), so a deploy shows at once.
 */
export function webCacheControl(pathInDist: string): string {
  const path = pathInDist.split(sep).join('/');
  return path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Files of the web build that only the server reads: the frames module (`ssr/`) and the manifests
 * of page frames and route preloads (with their compressed copies). A browser never asks for them,
 * and they describe the app's inner workings, so they are answered 404 like any missing file.
 */
const SERVER_ONLY = /^\/(ssr(\/|$)|(page-frames|route-preloads)\.json(\.br|\.gz)?$)/;

/** One set of files a page names for early download (web/build/route-preloads.ts writes them). */
interface PreloadFiles {
  scripts: string[];
  styles: string[];
}
/** A read the page makes as it opens, and for whom (everyone signed in when `roles` is absent). */
interface DataPreload {
  path: string;
  roles?: SessionUser['role'][];
}
interface PreloadRoute {
  path: string;
  prefix: boolean;
  common: PreloadFiles;
  phone: PreloadFiles;
  desktop: PreloadFiles;
  /** Absent in a manifest from a build before reads were named. */
  data?: DataPreload[];
}
export type Device = 'phone' | 'desktop' | 'unknown';

/**
 * Which of the terminal's two layouts the browser will most likely show: Chromium says whether it
 * runs on a phone in every request (`Sec-CH-UA-Mobile`); other browsers put "Mobi" in their
 * user agent on a phone. A guess only picks what to download early; the page still chooses by its
 * window's size.
 */
export function deviceOf(headers: IncomingHttpHeaders): Device {
  const hint = headers['sec-ch-ua-mobile'];
  if (hint === '?1') return 'phone';
  if (hint === '?0') return 'desktop';
  return /Mobi/.test(headers['user-agent'] ?? '') ? 'phone' : 'unknown';
}

/**
 * The page's `<link>` elements for a route's files on a device; low priority, so the style sheet and
 * the entry come first. Both kinds say `crossorigin`, as Vite's loader does when it asks for the same
 * files later: a preload fetched in another mode would not be used, and the file would come twice.
 */
export function preloadLinks(route: PreloadRoute, device: Device, { styles: withStyles = true } = {}): string {
  const sets = deviceSets(route, device);
  const scripts = sets.flatMap((s) => s.scripts).map((f) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${f}">`);
  const styles = withStyles ? sets.flatMap((s) => s.styles).map((f) => `<link rel="preload" as="style" fetchpriority="low" crossorigin href="/${f}">`) : [];
  return [...scripts, ...styles].join('');
}

function deviceSets(route: PreloadRoute, device: Device): PreloadFiles[] {
  return [route.common, ...(device === 'phone' ? [route.phone] : device === 'desktop' ? [route.desktop] : [])];
}

/**
 * The route's style sheets as the page's own, for a frame drawn with the route's classes: they are
 * in before the first paint like the entry's sheet, and the app's loader finds them there later.
 */
export function styleSheetLinks(route: PreloadRoute, device: Device): string {
  return deviceSets(route, device)
    .flatMap((s) => s.styles)
    .map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`)
    .join('');
}

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page's `<link>` elements for the reads it makes as it opens, for a user of `role`: fetched
 * with the page, so the answers are in when the page's modules have loaded instead of one round trip
 * after. `as="fetch"` with `crossorigin="anonymous"` is how the app's own `fetch` asks (same origin,
 * cookies sent), so the browser hands the preloaded answer to it rather than asking twice.
 */
export function dataPreloadLinks(route: PreloadRoute, role: SessionUser['role'] | null): string {
  if (!role) return '';
  return (route.data ?? [])
    .filter((d) => !d.roles || d.roles.includes(role))
    .map((d) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${attribute(d.path)}">`)
    .join('');
}

/**
 * How long a page waits for its session to be looked up before it is sent without naming its reads.
 * A session the instance has seen lately is answered from its cache at once; a cold one is a
 * database read of a millisecond or so. A slow database must not hold the page up.
 */
const SESSION_WAIT_MS = 200;

async function roleFor(request: FastifyRequest): Promise<SessionUser['role'] | null> {
  let timer: NodeJS.Timeout | undefined;
  const lookup = currentSession(request).then(
    (session) => session?.role ?? null,
    () => null,
  );
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SESSION_WAIT_MS);
  });
  try {
    return await Promise.race([lookup, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A signed-in page's first paint for a role, rendered by the build (web/src/page-frames.tsx). */
interface PageFrame {
  path: string;
  role: SessionUser['role'];
  html: string;
}

const ROOT_ELEMENT = /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/;

/**
 * The page with `frame` in place of the loading screen in its root element, marked so the app
 * knows to keep it on screen until it can render the page itself. The page unchanged if its root
 * element is not where the build puts it.
 */
export function withFrame(html: string, frame: PageFrame | undefined): string {
  if (!frame || !ROOT_ELEMENT.test(html)) return html;
  return html.replace(ROOT_ELEMENT, (_match, end: string) => `<div id="root" data-page-frame="${attribute(frame.path)}">${frame.html}</div>${end}`);
}

/**
 * The web build's frames module (web/build/page-frames.ts bundles web/src/page-frames.tsx into
 * `ssr/page-frames.js`), for the frames whose data moves: rendered for each request.
 */
interface FramesModule {
  renderTerminalFrame(data: { symbols: SymbolRecord[]; quotes: Quote[] }): { html: string; quotes: Quote[]; answers: string[] };
}

/** The frames module of the build in `webDist`, loaded as the server starts; none in a build without it. */
function loadFramesModule(webDist: string, log: FastifyInstance['log']): Promise<FramesModule | undefined> {
  const path = resolve(webDist, 'ssr', 'page-frames.js');
  if (!existsSync(path)) return Promise.resolve(undefined);
  return import(pathToFileURL(path).href).then(
    (module: FramesModule) => (typeof module.renderTerminalFrame === 'function' ? module : undefined),
    (err: unknown) => {
      log.warn({ err }, 'the web build\'s frames module did not load: pages are sent without their live frames');
      return undefined;
    },
  );
}

/**
 * The page's own data for the app to start from (the rows and quotes a frame shows), as JSON in an
 * element that does not run. `<` is written as its escape, so no text in it can end the element.
 */
export function pageDataElement(data: unknown): string {
  return `<script type="application/json" id="page-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}

/**
 * `html` with `text` at the end of its head. Inserted as is: a replacement string would read `$&`,
 * `` $` `` and the like in it as patterns (a symbol's description may hold them).
 */
export function intoHead(html: string, text: string): string {
  return html.replace('</head>', () => `${text}</head>`);
}

/** A page's encodings, made once. */
function kept(br: Buffer, gzip: Buffer): Pick<PageVariant, 'br' | 'gzip'> {
  return { br: () => br, gzip: () => gzip };
}

function readFrames(webDist: string): PageFrame[] {
  const path = resolve(webDist, 'page-frames.json');
  if (!existsSync(path)) return [];
  return (JSON.parse(readFileSync(path, 'utf8')) as { frames: PageFrame[] }).frames;
}

/**
 * What a phone terminal's frame is rendered from: the listed instruments and the quote book, read
 * at the moment the page is asked for. Absent (no live frames) where the server has no market data.
 */
interface LiveFrameSource {
  frames: Promise<FramesModule | undefined>;
  market: FastifyInstance['market'];
  now: () => number;
}

/** The phone terminal's path: the one page whose frame is rendered with the prices of the moment. */
const TERMINAL_PATH = '/trading';
/** How long one rendering of the phone terminal's page is sent to whoever asks for it. */
const LIVE_PAGE_MS = 250;

interface PageVariant {
  /** Empty for a page rendered for its request. */
  etag: string;
  identity: Buffer;
  br: () => Buffer;
  gzip: () => Buffer;
}

/**
 * The entry document of a signed-in page, naming the lazily loaded modules that page needs
 * (route-preloads.json from the build), so a browser fetches them beside the entry instead of one
 * round trip after it has run, and, for a session of the right role, the reads the page makes as it
 * opens. Only for a request carrying a session cookie: a signed-out visitor is sent to sign-in,
 * which needs none of them. Each variant (route, device, role) is built and compressed once.
 */
function routePreloadPages(webDist: string, live?: LiveFrameSource): ((request: FastifyRequest) => Promise<PageVariant | undefined>) | undefined {
  const manifestPath = resolve(webDist, 'route-preloads.json');
  if (!existsSync(manifestPath)) return undefined;
  const routes = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { routes: PreloadRoute[] }).routes;
  const html = readFileSync(resolve(webDist, 'index.html'), 'utf8');
  if (!html.includes('</head>')) return undefined;
  const frames = readFrames(webDist);
  // Frames are sent to phones only: a larger screen shows the user's name in the header, which a
  // frame rendered by the build does not know (the header would shift as the app takes over), and
  // a desktop's link rarely makes the frame worth it.
  const frameFor = (route: PreloadRoute, role: SessionUser['role'] | null, device: Device) =>
    route.prefix || !role || device !== 'phone' ? undefined : frames.find((f) => f.path === route.path && f.role === role);
  const variants = new Map<string, PageVariant>();
  const variant = (index: number, device: Device, role: SessionUser['role'] | null): PageVariant => {
    const key = `${index}:${device}:${role ?? ''}`;
    let page = variants.get(key);
    if (!page) {
      const route = routes[index]!;
      // The reads first: small answers the page waits for, at the priority of a fetch.
      // For a page with a frame, its first paint (for a session of that role) in place of the loading screen.
      // With a frame, the page's modules are asked for once the frame is on screen (index.html's
      // script moves them out of the template): the paint needs only the document and the style
      // sheet, and the modules must not share the link with them.
      const frame = frameFor(route, role, device);
      const modules = frame ? `<template id="after-first-paint">${preloadLinks(route, device)}</template>` : preloadLinks(route, device);
      const identity = Buffer.from(intoHead(withFrame(html, frame), `${dataPreloadLinks(route, role)}${modules}`));
      page = {
        etag: `"rp-${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
        identity,
        ...kept(brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }), gzipSync(identity, { level: 9 })),
      };
      variants.set(key, page);
    }
    return page;
  };
  /**
   * A trader's phone terminal, with its frame: the price table's first page with the quotes of the
   * moment (a few milliseconds to render). The page carries the rows and quotes the frame shows,
   * and does not also preload the reads they answer. It is the same for every trader's phone: one
   * rendering serves all who ask within LIVE_PAGE_MS, so however many ask (a scripted client, every
   * phone at the market's open) the server renders at most a few a second; the app's stream brings
   * the prices on from there.
   */
  let lastLive: { at: number; page: PageVariant } | undefined;
  const terminalPage = async (route: PreloadRoute, role: SessionUser['role'] | null, device: Device): Promise<PageVariant | undefined> => {
    if (!live || route.prefix || route.path !== TERMINAL_PATH || role !== 'trader' || device !== 'phone') return undefined;
    const frames = await live.frames;
    if (!frames) return undefined;
    const at = performance.now();
    if (lastLive && at - lastLive.at < LIVE_PAGE_MS) return lastLive.page;
    const time = live.now();
    // As listed now: the back office may change the catalogue while the server runs.
    const symbols = catalogueRows(live.market);
    const frame = frames.renderTerminalFrame({ symbols, quotes: live.market.listed.map((i) => live.market.book.view(i.symbol, time)) });
    const reads = { ...route, data: (route.data ?? []).filter((d) => !frame.answers.includes(d.path)) };
    const head = `${styleSheetLinks(route, device)}${pageDataElement({ symbols: { status: 'success', data: symbols }, quotes: frame.quotes })}${dataPreloadLinks(reads, role)}<template id="after-first-paint">${preloadLinks(route, device, { styles: false })}</template>`;
    const identity = Buffer.from(intoHead(withFrame(html, { path: route.path, role, html: frame.html }), head));
    // Each encoding at a quick setting, made when first asked for.
    let br: Buffer | undefined;
    let gzip: Buffer | undefined;
    const page: PageVariant = {
      etag: '',
      identity,
      br: () => (br ??= brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })),
      gzip: () => (gzip ??= gzipSync(identity, { level: 6 })),
    };
    lastLive = { at, page };
    return page;
  };
  /** The live page, or none (the page as built is sent) should its frame fail to render. */
  const liveTerminalPage = async (route: PreloadRoute, role: SessionUser['role'] | null, device: Device, log: FastifyRequest['log']): Promise<PageVariant | undefined> => {
    try {
      return await terminalPage(route, role, device);
    } catch (err) {
      log.warn({ err }, "the phone terminal's frame did not render: the page is sent without it");
      return undefined;
    }
  };
  return async (request) => {
    if (!request.cookies?.[SESSION_COOKIE]) return undefined;
    const path = request.url.split('?')[0]!;
    // The page's own route if it has one, else the longest prefix it falls under.
    let best = routes.findIndex((r) => !r.prefix && r.path === path);
    if (best < 0) {
      for (let i = 0; i < routes.length; i++) {
        const r = routes[i]!;
        if (r.prefix && path.startsWith(r.path) && (best < 0 || r.path.length > routes[best]!.path.length)) best = i;
      }
    }
    if (best < 0) return undefined;
    // The session is looked up only for a page that names reads or has a frame (only they depend on it).
    const route = routes[best]!;
    const device = deviceOf(request.headers);
    const role = route.data?.length || (device === 'phone' && frames.some((f) => !route.prefix && f.path === route.path)) ? await roleFor(request) : null;
    return (await liveTerminalPage(route, role, device, request.log)) ?? variant(best, device, role);
  };
}

/** Sends a page variant like the static files are sent: compressed as accepted, revalidated on every load. */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: PageVariant): FastifyReply {
  reply
    // Every such page is made for its request's session (its role's reads and frame, or the prices
    // of its moment): never for a shared cache to keep and hand to someone else.
    .header('cache-control', 'private, no-cache')
    .header('vary', 'Accept-Encoding, Cookie, Sec-CH-UA-Mobile, User-Agent')
    .type('text/html; charset=utf-8');
  if (page.etag) {
    // A page rendered for its request (the phone terminal's live frame) has no tag: it is not sent again unchanged.
    reply.header('etag', page.etag);
    const validators = String(request.headers['if-none-match'] ?? '').split(/\s*,\s*/);
    if (validators.includes(page.etag) || validators.includes('*')) return reply.code(304).send();
  }
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const [body, encoding] = /\bbr\b/.test(accepted) ? [page.br(), 'br'] : /\bgzip\b/.test(accepted) ? [page.gzip(), 'gzip'] : [page.identity, undefined];
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}

/**
 * The built web app (web/dist, or WEB_DIST_DIR) on the same origin as the API, and the answer for
 * every path no route took: an API 404 in the spec's shape, a plain 404 for a missing bundle file,
 * and the app's entry document for any other page (the app routes on the client).
 */
async function webApp(app: FastifyInstance, { webDistDir }: { webDistDir?: string }): Promise<void> {
  const webDist = resolve(webDistDir ?? defaultWebDist());
  const hasWeb = existsSync(resolve(webDist, 'index.html'));
  const live = hasWeb && app.hasDecorator('market') ? { frames: loadFramesModule(webDist, app.log), market: app.market, now: () => app.services.now() } : undefined;
  const pageFor = hasWeb ? routePreloadPages(webDist, live) : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz beside each file worth compressing; the client's
      // Accept-Encoding picks one (brotli first), and every answer says it varies on it.
      preCompressed: true,
      // What the build made for the server (the frames module, the frames and preload manifests) is not served.
      allowedPath: (pathName) => !SERVER_ONLY.test(pathName),
      cacheControl: false,
      setHeaders: (reply, path) => void reply.header('cache-control', webCacheControl(relative(webDist, path))),
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') return sendFailure(reply, 404, 'No such API call.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendFailure(reply, 404, 'Not found.');
    // A missing bundle file must not be answered with the page (a browser would run HTML as a script).
    if (request.url.startsWith('/assets/') || SERVER_ONLY.test(request.url.split('?')[0]!)) return reply.code(404).header('cache-control', 'no-cache').type('text/plain').send('Not found.');
    const page = await pageFor?.(request);
    if (page) return sendPage(request, reply, page);
    if (hasWeb) return reply.type('text/html').sendFile('index.html');
    return reply.code(503).type('text/plain').send('The web app has not been built. Run `npm run build` (npm start does this).');
  });
}

export const webAppPlugin = fp(webApp, { name: 'tradeport-web-app', fastify: '5.x' });
