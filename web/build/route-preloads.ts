import { relative } from 'node:path';
import type { Plugin } from 'vite';

/**
 * What a signed-in page's first load needs beyond the entry, told to the server so it can name it
 * in the page itself.
 *
 * A page behind the session (the dashboard, the terminal) is a chain of lazily loaded modules: the
 * signed-in layout, then the page's shell, then the page. Without help the browser learns of them
 * only once the entry has downloaded and run, one round trip and a long task after the document;
 * on a phone on a slow link that is the largest gap before the page shows. The server answers such
 * a page with `<link rel="modulepreload">` for each of its files (web/build output
 * `route-preloads.json`, read by server/src/plugins/web-app.ts), at low priority so they never
 * hold up the style sheet or the entry.
 *
 * Each route names its modules by source path; the build fails when a named module is not the
 * start of a chunk (renamed, or no longer loaded lazily), so the list cannot silently go stale.
 */
export interface RoutePreload {
  /** The page's path; with `prefix`, every path under it (`/dashboard/` matches `/dashboard/tools`). */
  path: string;
  prefix?: boolean;
  /** Source modules (relative to web/) loaded for this page whatever the device. */
  modules: string[];
  /** Modules loaded only on a phone's screen, or only on a larger one (the terminal's two layouts). */
  phone?: string[];
  desktop?: string[];
  /**
   * The page's first reads (API paths with their query, as the app asks for them), which the
   * server names for a session of one of `roles` so the answers come with the page's modules
   * instead of after them. Only reads the page makes at once: a preload nothing uses within a few
   * seconds is wasted (and the browser says so in the console).
   */
  data?: DataPreload[];
}

/** One read a page makes as it opens, and for whom (every signed-in user when `roles` is left out). */
export interface DataPreload {
  path: string;
  roles?: ('trader' | 'admin')[];
}

/** The files of one set of modules: scripts to modulepreload, style sheets to preload. */
export interface PreloadFiles {
  scripts: string[];
  styles: string[];
}

export interface RoutePreloadManifest {
  routes: {
    path: string;
    prefix: boolean;
    common: PreloadFiles;
    phone: PreloadFiles;
    desktop: PreloadFiles;
    data: DataPreload[];
  }[];
}

/** The parts of a bundled chunk this plugin reads (Rolldown's output chunk, with Vite's metadata). */
export interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  css: string[];
}

/**
 * Every file the `modules` need that the entry does not already bring: each module's chunk and the
 * chunks it imports statically, with their style sheets, in load order, without repeats.
 */
export function filesFor(modules: string[], chunks: ChunkInfo[], root: string, exclude: ReadonlySet<string> = new Set()): PreloadFiles {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.filter((c) => c.isEntry);
  const loaded = new Set<string>(exclude);
  const walkEntry = (c: ChunkInfo) => {
    if (loaded.has(c.fileName)) return;
    loaded.add(c.fileName);
    for (const i of c.imports) {
      const child = byFile.get(i);
      if (child) walkEntry(child);
    }
  };
  entry.forEach(walkEntry);
  const scripts: string[] = [];
  const styles: string[] = [];
  const walk = (c: ChunkInfo) => {
    if (loaded.has(c.fileName)) return;
    loaded.add(c.fileName);
    scripts.push(c.fileName);
    for (const s of c.css) if (!styles.includes(s)) styles.push(s);
    for (const i of c.imports) {
      const child = byFile.get(i);
      if (child) walk(child);
    }
  };
  for (const module of modules) {
    const chunk = chunks.find((c) => c.facadeModuleId !== null && relative(root, c.facadeModuleId).split('\\').join('/') === module);
    if (!chunk) throw new Error(`route-preloads: ${module} is not the start of any chunk of this build (renamed, or no longer loaded lazily?): update the list in web/vite.config.ts.`);
    walk(chunk);
  }
  return { scripts, styles };
}

/** The manifest for `routes` over a build's chunks. A device's files leave out those every device loads. */
export function routePreloadManifest(routes: RoutePreload[], chunks: ChunkInfo[], root: string): RoutePreloadManifest {
  return {
    routes: routes.map((r) => {
      const common = filesFor(r.modules, chunks, root);
      const done = new Set(common.scripts);
      const device = (modules: string[] | undefined): PreloadFiles => {
        if (!modules?.length) return { scripts: [], styles: [] };
        const files = filesFor(modules, chunks, root, done);
        return { scripts: files.scripts, styles: files.styles.filter((s) => !common.styles.includes(s)) };
      };
      for (const d of r.data ?? []) {
        if (!/^\/api\/[\w./-]+(\?[\w.=&%-]*)?$/.test(d.path)) throw new Error(`route-preloads: ${r.path}'s read ${d.path} is not an API path of this app`);
      }
      return { path: r.path, prefix: r.prefix ?? false, common, phone: device(r.phone), desktop: device(r.desktop), data: r.data ?? [] };
    }),
  };
}

/** The Vite plugin: writes `route-preloads.json` beside index.html in the build's output. */
export function routePreloads(routes: RoutePreload[]): Plugin {
  let root = '';
  return {
    name: 'tradeport:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks: ChunkInfo[] = [];
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        const css = (item as { viteMetadata?: { importedCss?: Set<string> } }).viteMetadata?.importedCss;
        chunks.push({ fileName: item.fileName, isEntry: item.isEntry, facadeModuleId: item.facadeModuleId, imports: item.imports, css: css ? [...css] : [] });
      }
      // A worker's own bundle has no page routes.
      if (!chunks.some((c) => c.isEntry && c.facadeModuleId?.endsWith('index.html'))) return;
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: `${JSON.stringify(routePreloadManifest(routes, chunks, root), null, 2)}\n` });
    },
  };
}
