import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { checkMantineStyles, componentOfModule, describeProblems, MANTINE_GLOBAL_SHEETS, mantineOrder, sheetOfModule } from '../build/mantine-styles';

/**
 * The build's check that the app's list of Mantine style sheets (src/mantine-styles.ts) is exactly
 * the components it bundles, in Mantine's own order (build/mantine-styles.ts).
 */
const require = createRequire(import.meta.url);
const ALL_STYLES = require.resolve('@mantine/core/styles.css');
const STYLES_DIR = ALL_STYLES.replace(/styles\.css$/, 'styles/');
const LIST = readFileSync(new URL('../src/mantine-styles.ts', import.meta.url), 'utf8');
const listed = [...LIST.matchAll(/^import '@mantine\/core\/styles\/([A-Za-z-]+)\.css';$/gm)].map((m) => m[1]!);

describe('Mantine style sheets per component', () => {
  test("a bundled module names its component's sheet only when it holds the component's classes", () => {
    assert.equal(componentOfModule('/app/node_modules/@mantine/core/esm/components/Button/Button.module.mjs'), 'Button');
    assert.equal(componentOfModule('C:\\app\\node_modules\\@mantine\\core\\esm\\components\\Checkbox\\CheckboxIndicator\\CheckboxIndicator.module.mjs'), 'CheckboxIndicator');
    assert.equal(componentOfModule('/app/node_modules/@mantine/core/esm/components/Button/Button.mjs'), null);
    assert.equal(componentOfModule('/app/web/src/terminal/price-table.module.css'), null);
    assert.equal(sheetOfModule('/app/node_modules/@mantine/core/styles/default-css-variables.css'), 'default-css-variables');
    assert.equal(sheetOfModule('/app/node_modules/@mantine/core/styles.css'), null);
  });

  test("sheets are ordered by where their first class rule stands in Mantine's whole styles.css", () => {
    const all = '.m_00000001{} .m_00000002{} .m_00000003{}';
    const order = mantineOrder(all, new Map([['Button', '.m_00000003 { color: red }'], ['UnstyledButton', '.m_00000001{}'], ['Empty', ':root{}']]));
    assert.deepEqual([...order], [['Button', all.indexOf('.m_00000003')], ['UnstyledButton', 0]]);
  });

  test('a component in the build without its sheet, a sheet without its component and a wrong order are each reported', () => {
    const order = new Map([['UnstyledButton', 0], ['Button', 10], ['Tabs', 20]]);
    const globals = [...MANTINE_GLOBAL_SHEETS];
    assert.deepEqual(checkMantineStyles(new Set(['UnstyledButton', 'Button']), [...globals, 'UnstyledButton', 'Button'], order), { missing: [], unused: [], reorder: null });
    const missing = checkMantineStyles(new Set(['UnstyledButton', 'Button', 'Tabs']), [...globals, 'UnstyledButton', 'Button'], order);
    assert.deepEqual(missing.missing, ['Tabs']);
    assert.match(describeProblems(missing, 'src/mantine-styles.ts') ?? '', /add \(the build uses these components\):\n {2}import '@mantine\/core\/styles\/Tabs\.css';/);
    const unused = checkMantineStyles(new Set(['Button']), [...globals, 'Button', 'Tabs'], order);
    assert.deepEqual(unused.unused, ['Tabs']);
    assert.match(describeProblems(unused, 'src/mantine-styles.ts') ?? '', /remove \(no such component is in the build\)/);
    const swapped = checkMantineStyles(new Set(['UnstyledButton', 'Button']), [...globals, 'Button', 'UnstyledButton'], order);
    assert.deepEqual(swapped.reorder, [...globals, 'UnstyledButton', 'Button']);
    assert.match(describeProblems(swapped, 'src/mantine-styles.ts') ?? '', /put the imports in Mantine's order/);
    // The globals come first, in their own order.
    assert.notEqual(checkMantineStyles(new Set(['Button']), ['global', 'baseline', 'default-css-variables', 'Button'], order).reorder, null);
    // A component whose sheet has no class rules of its own (not in the order) is not required.
    assert.deepEqual(checkMantineStyles(new Set(['Button', 'Portal']), [...globals, 'Button'], order).missing, []);
  });

  test("the app's list names existing sheets, the globals first, then components in Mantine's order", () => {
    assert.deepEqual(listed.slice(0, 3), [...MANTINE_GLOBAL_SHEETS]);
    for (const name of listed) assert.ok(existsSync(`${STYLES_DIR}${name}.css`), `${name}.css is not one of Mantine's sheets`);
    const components = listed.slice(3);
    const order = mantineOrder(readFileSync(ALL_STYLES, 'utf8'), new Map(components.map((c) => [c, readFileSync(`${STYLES_DIR}${c}.css`, 'utf8')])));
    assert.equal(checkMantineStyles(new Set(components), listed, order).reorder, null);
    // The point of the list: a fraction of the whole set.
    const bytes = listed.reduce((sum, name) => sum + readFileSync(`${STYLES_DIR}${name}.css`).length, 0);
    assert.ok(bytes < readFileSync(ALL_STYLES).length * 0.7, `the listed sheets are ${bytes} bytes`);
  });
});
