import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChartCandle, IconLock, IconReportAnalytics, IconWallet } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Logo } from '../ui/logo';
import classes from './auth-layout.module.css';

const POINTS = [
  { icon: IconWallet, text: 'Manage your trading account, deposits and withdrawals' },
  { icon: IconReportAnalytics, text: 'Access reports of every trade and request' },
  { icon: IconChartCandle, text: 'Technical analysis on live Forex, Crypto, Stocks and Metals prices' },
  { icon: IconLock, text: 'Prices and fills from the broker’s own server' },
];

/**
 * The frame of sign-in, sign-up and password reset: the product's promise beside the form. These
 * pages follow the system's light or dark theme; the switch is in the signed-in app (keeping the
 * sign-in page's script within its budget).
 */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <div className={classes.page}>
      <aside className={classes.brand} aria-label="About Tradeport">
        <Logo inverted />
        <div>
          <Title order={2} className={classes.tagline}>
            Manage your accounts, access reports and technical analysis — in one place.
          </Title>
          <Stack gap="md" mt="xl">
            {POINTS.map(({ icon: Icon, text }) => (
              <div key={text} className={classes.point}>
                <Icon size={20} stroke={1.6} aria-hidden />
                <span>{text}</span>
              </div>
            ))}
          </Stack>
        </div>
        <Text size="xs" className={classes.risk}>
          Trading leveraged products carries a high level of risk and may not be suitable for all investors.
        </Text>
      </aside>
      <main className={classes.main}>
        <Box className={classes.mobileLogo}>
          <Logo />
        </Box>
        <Paper className={classes.card} p={{ base: 'lg', sm: 'xl' }} withBorder={false}>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm" mt={6}>
              {subtitle}
            </Text>
          )}
          <Box mt="lg">{children}</Box>
        </Paper>
      </main>
    </div>
  );
}
