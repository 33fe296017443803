import { createTheme, type MantineColorsTuple } from '@mantine/core';

/**
 * The one theme of the app. Colour meanings are fixed everywhere (docs/design.md#colours-and-figures): Buy is teal-green, Sell
 * red; in the price table a rise is blue and a fall red (the spec's rule). Figures use Inter's
 * tabular numerals so columns of prices line up and a tick never moves its neighbours.
 */
const brand: MantineColorsTuple = ['#e9f1ff', '#d1dfff', '#a1bcfb', '#6e97f7', '#4377f3', '#2a63f2', '#1b58f2', '#0b49d8', '#0040c2', '#0037ab'];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand },
  fontFamily: "'Inter Variable', Inter, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  fontFamilyMonospace: "'Inter Variable', ui-monospace, SFMono-Regular, Menlo, monospace",
  headings: { fontFamily: "'Inter Variable', Inter, system-ui, sans-serif", fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  components: {
    Button: { defaultProps: { fw: 600 } },
    Paper: { defaultProps: { withBorder: true, radius: 'md' } },
    Card: { defaultProps: { withBorder: true, radius: 'md' } },
    Table: { defaultProps: { verticalSpacing: 'xs', highlightOnHover: true } },
    Notification: {
      defaultProps: { withBorder: true, closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-text)' } },
    },
    // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
    ScrollArea: { defaultProps: { viewportProps: { tabIndex: 0 } } },
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
  },
});

/** Colours with a meaning, readable on both themes (WCAG AA on the page background). */
export const semantic = {
  buy: 'var(--tp-buy)',
  sell: 'var(--tp-sell)',
  up: 'var(--tp-up)',
  down: 'var(--tp-down)',
  positive: 'var(--tp-positive)',
  negative: 'var(--tp-negative)',
} as const;
