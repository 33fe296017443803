import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * Keeps `src/mantine-styles.ts` (the Mantine style sheets the app loads, one per component) equal to
 * the components the build actually contains, in Mantine's own order.
 *
 * Mantine's whole `styles.css` is about 290 KB of CSS for a hundred components, render-blocking on
 * every page and parsed before the first paint (the largest single task at the start of the
 * dashboard on a phone); the app uses about fifty of them. Mantine publishes one file per component
 * (`@mantine/core/styles/Button.css`), but a list kept by hand goes stale: a new component without
 * its file renders unstyled, a removed one leaves dead CSS. So the build compares the two and fails
 * with the exact change to make.
 *
 * A component's classes live in its `<Name>.module.mjs`; its styles in `styles/<Name>.css` (the
 * names match one to one). The order matters where components build on each other (Button's rules
 * after UnstyledButton's), so the list must follow the order of Mantine's `styles.css`.
 */

/** The global sheets every page needs, first and in this order (Mantine's "Global styles"). */
export const MANTINE_GLOBAL_SHEETS = ['baseline', 'default-css-variables', 'global'] as const;

/** The component whose classes a bundled module holds (`…/Button/Button.module.mjs` → `Button`), or null. */
export function componentOfModule(id: string): string | null {
  const m = /@mantine[\\/]core[\\/]esm[\\/].*[\\/]([A-Za-z]+)\.module\.mjs$/.exec(id);
  return m?.[1] ?? null;
}

/** The sheet a module id names (`…/@mantine/core/styles/Button.css` → `Button`), or null. */
export function sheetOfModule(id: string): string | null {
  const m = /@mantine[\\/]core[\\/]styles[\\/]([A-Za-z-]+)\.css$/.exec(id);
  return m?.[1] ?? null;
}

/**
 * Each component sheet's place in Mantine's `styles.css` (where its first class rule appears), from
 * that file's text and each sheet's: the order the whole file cascades in.
 */
export function mantineOrder(allStyles: string, sheets: ReadonlyMap<string, string>): Map<string, number> {
  const order = new Map<string, number>();
  for (const [name, css] of sheets) {
    const firstClass = /\.m_[0-9a-f]{8}\b/.exec(css);
    if (!firstClass) continue;
    const at = allStyles.indexOf(firstClass[0]);
    if (at >= 0) order.set(name, at);
  }
  return order;
}

export interface StylesCheck {
  /** Components in the build whose sheet is not imported. */
  missing: string[];
  /** Sheets imported for components the build does not contain. */
  unused: string[];
  /** The imports in the order they should be, when they are not already in it. */
  reorder: string[] | null;
}

/**
 * What is wrong with the imported sheets (`imported`, in import order) for the components in the
 * build (`used`). Sheets of components without any style rules of their own are not required.
 */
export function checkMantineStyles(used: ReadonlySet<string>, imported: readonly string[], order: ReadonlyMap<string, number>): StylesCheck {
  const globals: readonly string[] = MANTINE_GLOBAL_SHEETS;
  const components = imported.filter((s) => !globals.includes(s));
  const missing = [...used].filter((c) => order.has(c) && !components.includes(c)).sort();
  const unused = components.filter((c) => !used.has(c));
  const expected = [...MANTINE_GLOBAL_SHEETS, ...[...components].sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity))];
  const inOrder = expected.length === imported.length && expected.every((s, i) => s === imported[i]);
  return { missing, unused, reorder: inOrder ? null : expected };
}

/** The build's error for a failed check, naming the file to edit and the lines to add, drop or reorder. */
export function describeProblems(check: StylesCheck, file: string): string | null {
  const lines: string[] = [];
  const line = (s: string) => `  import '@mantine/core/styles/${s}.css';`;
  if (check.missing.length) lines.push(`add (the build uses these components):`, ...check.missing.map(line));
  if (check.unused.length) lines.push(`remove (no such component is in the build):`, ...check.unused.map(line));
  if (!check.missing.length && !check.unused.length && check.reorder) lines.push(`put the imports in Mantine's order:`, ...check.reorder.map(line));
  return lines.length ? `mantine-styles: ${file} does not match the Mantine components in this build;\n${lines.join('\n')}` : null;
}

/** The Vite plugin. `listFile` is the module that imports the sheets, relative to web/. */
export function mantineStyles(listFile = 'src/mantine-styles.ts'): Plugin {
  return {
    name: 'tradeport:mantine-styles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const used = new Set<string>();
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        for (const [id, info] of Object.entries(item.modules)) {
          const component = componentOfModule(id);
          if (component && info.renderedLength > 0) used.add(component);
        }
      }
      // A worker's own bundle has no components.
      if (used.size === 0) return;
      const listId = [...this.getModuleIds()].find((id) => id.split('\\').join('/').endsWith(`/${listFile}`));
      if (!listId) {
        this.error(`mantine-styles: ${listFile} is not part of the build; main.tsx must import it.`);
      }
      const imported = (this.getModuleInfo(listId)?.importedIds ?? []).map(sheetOfModule).filter((s): s is string => s !== null);
      const allStyles = createRequire(import.meta.url).resolve('@mantine/core/styles.css');
      const stylesDir = allStyles.replace(/styles\.css$/, 'styles/');
      const sheets = new Map<string, string>();
      for (const name of new Set([...used, ...imported])) {
        try {
          sheets.set(name, readFileSync(`${stylesDir}${name}.css`, 'utf8'));
        } catch {
          // A component without a sheet of its own.
        }
      }
      const order = mantineOrder(readFileSync(allStyles, 'utf8'), sheets);
      const problems = describeProblems(checkMantineStyles(used, imported, order), listFile);
      if (problems) this.error(problems);
    },
  };
}
