import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** Light or dark; the choice is remembered (localStorage), the system's is the default. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    // A native title rather than a Tooltip: this button is on the sign-in page, whose script we keep small.
    <ActionIcon variant="default" size="lg" aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`} onClick={() => setColorScheme(next)}>
      {/* Both icons, one hidden by the colour scheme's CSS: right from the first paint, also in a page
          rendered ahead of the app (src/page-frames.tsx), where the computed scheme is not known yet. */}
      <IconSun size={18} stroke={1.6} className="tp-scheme-dark-only" aria-hidden />
      <IconMoon size={18} stroke={1.6} className="tp-scheme-light-only" aria-hidden />
    </ActionIcon>
  );
}
