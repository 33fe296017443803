import { Badge, Group, Table, Text } from '@mantine/core';
import { SIGN_IN_OUTCOME_LABELS, type SignIn } from '@tradeport/contracts';
import { formatDateTime } from '../format/format';
import { RecordItem, RecordList, usePhone } from './records';

/** A sign-in's outcome: green when it signed in, red when it was refused (colour is never the only signal: the words say it). */
export function SignInOutcome({ outcome }: { outcome: SignIn['outcome'] }) {
  return (
    <Badge variant="dot" color={outcome === 'success' ? 'teal' : 'red'} styles={{ root: { textTransform: 'none', overflow: 'visible', flex: 'none' }, label: { overflow: 'visible' } }}>
      {SIGN_IN_OUTCOME_LABELS[outcome]}
    </Badge>
  );
}

function DeviceCell({ s, truncate = false }: { s: SignIn; truncate?: boolean }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Group gap={6} wrap={truncate ? 'nowrap' : 'wrap'} style={{ rowGap: 2 }}>
        <Text size="sm" fw={600} truncate={truncate ? 'end' : undefined}>
          {s.device}
        </Text>
        {s.newDevice && (
          <Badge size="xs" variant="outline" color="gray" styles={{ root: { textTransform: 'none', flex: 'none' }, label: { color: 'var(--mantine-color-text)' } }}>
            New device
          </Badge>
        )}
      </Group>
      {s.detail && (
        <Text size="xs" c="dimmed">
          {s.detail}
        </Text>
      )}
    </div>
  );
}

/** Sign-in attempts, newest first: a table on a wide screen, records on a phone. */
export function SignInList({ rows, label = 'Recent sign-ins' }: { rows: readonly SignIn[]; label?: string }) {
  const phone = usePhone();
  if (phone) {
    return (
      <RecordList label={label}>
        {rows.map((s) => (
          <RecordItem key={s.id} title={<DeviceCell s={s} truncate />} subtitle={`${formatDateTime(s.time)} · ${s.ip}`} aside={<SignInOutcome outcome={s.outcome} />} />
        ))}
      </RecordList>
    );
  }
  return (
    <Table.ScrollContainer minWidth={620} type="native">
      <Table aria-label={label} fz="sm" verticalSpacing={6} styles={{ th: { whiteSpace: 'nowrap' } }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Device</Table.Th>
            <Table.Th>Address</Table.Th>
            <Table.Th>Outcome</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td className="tp-figure" style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(s.time)}
              </Table.Td>
              <Table.Td>
                <DeviceCell s={s} />
              </Table.Td>
              <Table.Td className="tp-figure" c="dimmed">
                {s.ip}
              </Table.Td>
              <Table.Td>
                <SignInOutcome outcome={s.outcome} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
