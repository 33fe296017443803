import { Group, Text } from '@mantine/core';

/** The product mark: a rising candle in a rounded square, and the name. */
export function Logo({ inverted = false, size = 'md', nameFrom }: { inverted?: boolean; size?: 'sm' | 'md'; /** Hide the name below this breakpoint (crowded bars). */ nameFrom?: 'xs' | 'sm' }) {
  const box = size === 'sm' ? 26 : 30;
  return (
    <Group gap={10} wrap="nowrap" aria-label="Tradeport">
      <svg width={box} height={box} viewBox="0 0 32 32" aria-hidden focusable="false">
        <rect width="32" height="32" rx="8" fill={inverted ? '#ffffff' : 'var(--mantine-color-brand-7)'} />
        <path d="M10 8v16M16 6v20M22 10v12" stroke={inverted ? '#0b49d8' : '#ffffff'} strokeWidth="2" strokeLinecap="round" />
        <rect x="7.5" y="12" width="5" height="8" rx="1.2" fill={inverted ? '#0b49d8' : '#ffffff'} />
        <rect x="13.5" y="9" width="5" height="11" rx="1.2" fill={inverted ? '#0b49d8' : '#ffffff'} />
        <rect x="19.5" y="13" width="5" height="6" rx="1.2" fill={inverted ? '#0b49d8' : '#ffffff'} />
      </svg>
      <Text fw={700} fz={size === 'sm' ? 'md' : 'lg'} c={inverted ? 'white' : undefined} style={{ letterSpacing: '-0.01em' }} visibleFrom={nameFrom}>
        Tradeport
      </Text>
    </Group>
  );
}
