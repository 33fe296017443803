import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { theme } from '../src/theme';
import { LoadingScreen } from '../src/ui/loading-screen';

test("the page's own loading screen (index.html) is the app's LoadingScreen as React renders it, so nothing changes on screen when the app takes over", () => {
  const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
  const inPage = /<div id="root">([\s\S]*?)<\/div>\s*<script type="module"/.exec(html)?.[1];
  assert.ok(inPage, 'index.html holds a loading screen in #root');
  const rendered = renderToStaticMarkup(createElement(MantineProvider, { theme, withCssVariables: false, withGlobalClasses: false }, createElement(LoadingScreen)));
  assert.equal(inPage, rendered);
});

test("index.html sets the theme's primary colour for the loader, light and dark, as the app's theme does", () => {
  const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
  const brand = theme.colors?.brand;
  const shade = theme.primaryShade as { light: number; dark: number };
  assert.match(html, new RegExp(`\\.mantine-Loader-root \\{ --loader-color: ${brand?.[shade.light]}; \\}`));
  assert.match(html, new RegExp(`dark'\\] #root > \\.mantine-Center-root \\.mantine-Loader-root \\{ --loader-color: ${brand?.[shade.dark]}; \\}`));
});
