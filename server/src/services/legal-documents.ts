import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEGAL_DOCUMENT_ID_PATTERN, type LegalDocument, type LegalDocumentSummary } from '@tradeport/contracts';
import { Marked, type Tokens } from 'marked';
import { refuse } from './errors';

/**
 * The Legal Terms and Policies pages: markdown files an operator edits in `server/config/legal`
 * (or the directory `LEGAL_DIR` names instead). Each `<id>.md` is one document; its first `# `
 * heading is the title. Files are looked at on every request (one directory read and one stat per
 * file) and parsed again only when their modification time or size changed, so an edit shows at
 * once without a restart and an unchanged file costs no parsing.
 */
export const DEFAULT_LEGAL_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../config/legal');

/** The usual documents come first, in this order; any other file follows, by id. */
export const LEGAL_DOCUMENT_ORDER = ['terms', 'privacy', 'risk-disclosure', 'aml'];

/** Limits, so a stray large file or a crowded directory cannot make every request slow. */
const MAX_DOCUMENTS = 50;
const MAX_FILE_BYTES = 512 * 1024;

export const NO_SUCH_DOCUMENT = 'No such document.';

interface Parsed {
  mtimeMs: number;
  size: number;
  title: string;
  html: string;
  version: string;
}

/**
 * A document's version: the first 16 hex digits of the SHA-256 of its file. Any edit gives a new
 * version, and an unchanged text keeps its version across restarts and instances.
 */
export const documentVersion = (markdown: string): string => createHash('sha256').update(markdown).digest('hex').slice(0, 16);

/** The documents a new trader accepts on the sign-up form, when the operator publishes them. */
export const SIGN_UP_DOCUMENTS = ['terms', 'risk-disclosure'] as const;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Links may go to web pages, mail addresses, or places on this site; anything else (javascript:, data:) is shown as text. */
const isSafeHref = (href: string): boolean => /^(https?:\/\/|mailto:|\/(?!\/)|#)/i.test(href.trim());

function markdownRenderer(): Marked {
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      // Raw HTML in a document is shown as the text it is, never passed to the browser as markup.
      html(token: Tokens.HTML | Tokens.Tag): string {
        const text = escapeHtml(token.text);
        return 'block' in token && token.block ? `<p>${text}</p>\n` : text;
      },
      link(token: Tokens.Link): string | false {
        if (isSafeHref(token.href)) return false;
        return this.parser.parseInline(token.tokens);
      },
      image(token: Tokens.Image): string | false {
        // The page's CSP only allows images from this site anyway.
        if (/^\/(?!\/)/.test(token.href.trim())) return false;
        return escapeHtml(token.text);
      },
    },
  });
  return marked;
}

/** Splits off the first level-one heading: it is the title, the rest is the body. */
export function splitTitle(markdown: string, fallback: string): { title: string; body: string } {
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  const at = lines.findIndex((l) => /^# +\S/.test(l));
  if (at === -1) return { title: fallback, body: markdown };
  const title = lines[at]!.replace(/^# +/, '').replace(/ +#+ *$/, '').trim();
  return { title, body: [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n') };
}

export class LegalLibrary {
  private readonly cache = new Map<string, Parsed>();
  private readonly marked = markdownRenderer();

  constructor(readonly dir: string) {}

  /** Every document's id and title, in the documented order. */
  async list(): Promise<LegalDocumentSummary[]> {
    const ids = await this.ids();
    const docs: LegalDocumentSummary[] = [];
    for (const id of ids) {
      const doc = await this.load(id);
      if (doc) docs.push({ id, title: doc.title, version: doc.version });
    }
    return docs;
  }

  async get(id: string): Promise<LegalDocument> {
    // The pattern admits no dot or slash, so an id can never leave the directory.
    if (!LEGAL_DOCUMENT_ID_PATTERN.test(id)) throw refuse.notFound(NO_SUCH_DOCUMENT);
    const doc = await this.load(id);
    if (!doc) throw refuse.notFound(NO_SUCH_DOCUMENT);
    return { id, title: doc.title, version: doc.version, html: doc.html, updatedAt: new Date(doc.mtimeMs).toISOString() };
  }

  /** The current version of each of `ids` that is published (missing ones are left out). */
  async versions(ids: readonly string[]): Promise<Map<string, { title: string; version: string }>> {
    const found = new Map<string, { title: string; version: string }>();
    for (const id of ids) {
      if (!LEGAL_DOCUMENT_ID_PATTERN.test(id)) continue;
      const doc = await this.load(id);
      if (doc) found.set(id, { title: doc.title, version: doc.version });
    }
    return found;
  }

  private async ids(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const ids = names
      .filter((n) => n.endsWith('.md'))
      .map((n) => n.slice(0, -'.md'.length))
      .filter((id) => LEGAL_DOCUMENT_ID_PATTERN.test(id));
    const rank = (id: string) => {
      const i = LEGAL_DOCUMENT_ORDER.indexOf(id);
      return i === -1 ? LEGAL_DOCUMENT_ORDER.length : i;
    };
    return ids.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_DOCUMENTS);
  }

  private async load(id: string): Promise<Parsed | null> {
    const file = join(this.dir, `${id}.md`);
    let info;
    try {
      info = await stat(file);
    } catch {
      this.cache.delete(id);
      return null;
    }
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return null;
    const cached = this.cache.get(id);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const markdown = await readFile(file, 'utf8');
    const { title, body } = splitTitle(markdown, id);
    const parsed: Parsed = { mtimeMs: info.mtimeMs, size: info.size, title, html: this.marked.parse(body, { async: false }), version: documentVersion(markdown) };
    this.cache.set(id, parsed);
    return parsed;
  }
}
