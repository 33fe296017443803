import { ActionIcon, Button, Modal, Text } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconMathFunction, IconX } from '@tabler/icons-react';
import { MAX_CHART_INDICATORS } from '@tradeport/contracts/chart-names';
import { useState } from 'react';
import type { ChartModel } from './chart-model';
import classes from './chart.module.css';
import { addIndicator, INDICATOR_GROUPS, removeIndicator } from './indicator-picker';
import { indicatorTitle } from './indicators';

/**
 * The phone's indicators: a button in the tool column that opens a full-screen list of the
 * indicators on the chart (each opens its settings or is removed) and of every indicator to add,
 * all rows finger-sized.
 */
export function PhoneIndicators({ model }: { model: ChartModel }) {
  const [opened, setOpened] = useState(false);
  const { layout, loaded } = model;
  const full = layout.indicators.length >= MAX_CHART_INDICATORS;
  const count = layout.indicators.length;
  return (
    <>
      <ActionIcon size={44} variant={count ? 'light' : 'subtle'} color="gray" aria-label={count ? `Indicators (${count} on the chart)` : 'Indicators'} disabled={!loaded} onClick={() => setOpened(true)}>
        <IconMathFunction size={22} />
      </ActionIcon>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Indicators" fullScreen transitionProps={{ duration: 0 }} classNames={{ title: classes.largeTitle }} closeButtonProps={{ 'aria-label': 'Close the indicators', size: 44 }}>
        <section aria-labelledby="phone-indicators-on">
          <Text id="phone-indicators-on" size="sm" fw={600} c="dimmed" mb={4}>
            On the chart ({count} of {MAX_CHART_INDICATORS})
          </Text>
          {count === 0 ? (
            <Text size="sm" c="dimmed" mb="md">
              None yet: add one below. Averages and bands are drawn over the candles, the others in a pane under them.
            </Text>
          ) : (
            <ul className={classes.phoneIndicatorList} aria-label="Indicators on the chart">
              {layout.indicators.map((ind, i) => (
                <li key={`${i}-${ind.name}`} className={classes.phoneIndicatorRow}>
                  <span className={classes.indicatorSwatch} style={{ background: ind.colors[0] }} />
                  <Button
                    variant="subtle"
                    color="gray"
                    justify="flex-start"
                    className={classes.phoneIndicatorName}
                    leftSection={<IconAdjustmentsHorizontal size={18} />}
                    aria-label={`Settings of ${indicatorTitle(ind)}`}
                    onClick={() => {
                      setOpened(false);
                      model.onEditIndicator(i);
                    }}
                  >
                    {indicatorTitle(ind)}
                  </Button>
                  <ActionIcon size={44} variant="subtle" color="gray" aria-label={`Remove ${indicatorTitle(ind)}`} onClick={() => removeIndicator(model, i)}>
                    <IconX size={20} />
                  </ActionIcon>
                </li>
              ))}
            </ul>
          )}
        </section>
        {INDICATOR_GROUPS.map((group) => (
          <section key={group.label} aria-label={`Add: ${group.label.toLowerCase()}`}>
            <Text size="sm" fw={600} c="dimmed" mt="md" mb={4}>
              Add · {group.label.toLowerCase()}
            </Text>
            {group.indicators.map((def) => (
              <Button
                key={def.name}
                fullWidth
                variant="subtle"
                color="gray"
                justify="space-between"
                className={classes.phoneIndicatorAdd}
                disabled={full}
                data-indicator={def.name}
                rightSection={
                  <Text span size="xs" c="dimmed">
                    {def.name}
                  </Text>
                }
                onClick={() => addIndicator(model, def.name)}
              >
                {def.label}
              </Button>
            ))}
          </section>
        ))}
        {full && (
          <Text size="sm" c="dimmed" mt="sm" role="status">
            A chart holds at most {MAX_CHART_INDICATORS} indicators: remove one to add another.
          </Text>
        )}
      </Modal>
    </>
  );
}
