import { Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { GroupSummary, Rating, TechnicalSummary } from './technical-summary-types';
import { RATINGS } from './technical-summary-types';

const RATING_COLORS: Record<Rating, string> = {
  'Strong Sell': 'var(--tp-sell)',
  Sell: 'var(--tp-sell)',
  Neutral: 'var(--tp-muted)',
  Buy: 'var(--tp-buy)',
  'Strong Buy': 'var(--tp-buy)',
};

/** A half-dial from Strong Sell to Strong Buy with a needle at the score (−1 … 1). */
function Dial({ score, size }: { score: number; size: number }) {
  const angle = Math.PI * (1 - (score + 1) / 2);
  const r = size / 2 - 8;
  const cx = size / 2;
  const cy = size / 2;
  const arc = (from: number, to: number) => {
    const a0 = Math.PI * (1 - from);
    const a1 = Math.PI * (1 - to);
    return `M ${cx + r * Math.cos(a0)} ${cy - r * Math.sin(a0)} A ${r} ${r} 0 0 1 ${cx + r * Math.cos(a1)} ${cy - r * Math.sin(a1)}`;
  };
  const segments = [
    [0, 0.25, 'var(--tp-sell)'],
    [0.25, 0.45, 'color-mix(in srgb, var(--tp-sell) 55%, transparent)'],
    [0.45, 0.55, 'var(--tp-muted)'],
    [0.55, 0.75, 'color-mix(in srgb, var(--tp-buy) 55%, transparent)'],
    [0.75, 1, 'var(--tp-buy)'],
  ] as const;
  return (
    <svg width={size} height={size / 2 + 10} viewBox={`0 0 ${size} ${size / 2 + 10}`} aria-hidden>
      {segments.map(([a, b, color]) => (
        <path key={a} d={arc(a + 0.01, b - 0.01)} stroke={color} strokeWidth={8} fill="none" strokeLinecap="round" />
      ))}
      <line x1={cx} y1={cy} x2={cx + (r - 14) * Math.cos(angle)} y2={cy - (r - 14) * Math.sin(angle)} stroke="var(--mantine-color-text)" strokeWidth={3} strokeLinecap="round" />
      <circle cx={cx} cy={cy} r={5} fill="var(--mantine-color-text)" />
    </svg>
  );
}

export function GaugeCard({ title, group, size = 180, emphasis = false }: { title: string; group: GroupSummary; size?: number; emphasis?: boolean }) {
  return (
    <Stack align="center" gap={4} data-testid={`gauge-${title.toLowerCase().replace(/\s+/g, '-')}`}>
      <Text size="sm" fw={600} c="dimmed">
        {title}
      </Text>
      <Dial score={group.score} size={size} />
      <Text fw={700} fz={emphasis ? 'xl' : 'lg'} style={{ color: RATING_COLORS[group.rating] }} aria-label={`${title}: ${group.rating}`}>
        {group.rating}
      </Text>
      <Group gap="md" className="tp-figure">
        <Text size="xs" c="dimmed">
          Sell <b style={{ color: 'var(--tp-sell)' }}>{group.sell}</b>
        </Text>
        <Text size="xs" c="dimmed">
          Neutral <b>{group.neutral}</b>
        </Text>
        <Text size="xs" c="dimmed">
          Buy <b style={{ color: 'var(--tp-buy)' }}>{group.buy}</b>
        </Text>
      </Group>
    </Stack>
  );
}

/** The three dials: oscillators, the overall summary (largest), moving averages. */
export function TechnicalGauges({ summary, compact = false, vertical = false }: { summary: TechnicalSummary; compact?: boolean; vertical?: boolean }) {
  if (summary.summary.indicators.every((i) => i.value === null)) {
    // No indicator can be computed: a Neutral dial would claim a reading we do not have.
    return (
      <Text size="sm" c="dimmed" ta="center" py="xl" data-testid="gauge-no-data">
        Not enough price history for a technical rating on this interval yet.
      </Text>
    );
  }
  if (vertical) {
    // Beside a chart: the summary dial, and the two groups as a line each.
    return (
      <Stack gap="sm" align="center">
        <GaugeCard title="Summary" group={summary.summary} size={190} emphasis />
        <Group gap="xl" justify="center">
          <GroupLine title="Oscillators" group={summary.oscillators} />
          <GroupLine title="Moving Averages" group={summary.movingAverages} />
        </Group>
      </Stack>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md" verticalSpacing="lg">
      <GaugeCard title="Oscillators" group={summary.oscillators} size={compact ? 150 : 170} />
      <GaugeCard title="Summary" group={summary.summary} size={compact ? 170 : 210} emphasis />
      <GaugeCard title="Moving Averages" group={summary.movingAverages} size={compact ? 150 : 170} />
    </SimpleGrid>
  );
}

function GroupLine({ title, group }: { title: string; group: GroupSummary }) {
  return (
    <Stack gap={0} align="center">
      <Text size="xs" c="dimmed" fw={600}>
        {title}
      </Text>
      <Text size="sm" fw={700} style={{ color: RATING_COLORS[group.rating] }}>
        {group.rating}
      </Text>
    </Stack>
  );
}

export function IndicatorTable({ title, group, digits }: { title: string; group: GroupSummary; digits: number }) {
  return (
    <Paper p="md">
      <Text fw={600} mb="sm">
        {title}
      </Text>
      <Table.ScrollContainer minWidth={300}>
        <Table fz="sm" aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th className="tp-num">Value</Table.Th>
              <Table.Th className="tp-num">Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {group.indicators.map((i) => (
              <Table.Tr key={i.name}>
                <Table.Td>{i.name}</Table.Td>
                <Table.Td className="tp-num">{i.value === null ? '—' : i.value.toFixed(Math.abs(i.value) >= 1000 ? 2 : digits)}</Table.Td>
                <Table.Td className="tp-num" style={{ color: i.action === 'Neutral' ? 'var(--tp-muted)' : i.action === 'Buy' ? 'var(--tp-buy)' : 'var(--tp-sell)', fontWeight: 600 }}>
                  {i.action}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

export { RATINGS };
