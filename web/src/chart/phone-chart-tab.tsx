import { ActionIcon, Button, Center, Loader, Menu, Text, Tooltip } from '@mantine/core';
import { IconCamera, IconChartArea, IconChartCandle, IconChevronDown, IconCrosshair, IconEye, IconEyeOff, IconMagnet, IconMenu2, IconPlus, IconTrash } from '@tabler/icons-react';
import { PERIOD_NAMES, type PeriodName } from '@tradeport/contracts/periods';
import { useState } from 'react';
import { useSymbols } from '../api/queries';
import { formatPrice } from '../format/format';
import { useQuote } from '../stream/hooks';
import type { ChartType } from './chart-controller';
import { ChartModelDialogs, useChartModel, type ChartModel } from './chart-model';
import { ChartStage, ConfirmRemoveAll, MENU_ICONS, SaveStatus, useChartStage } from './chart-stage';
import { PhoneIndicators } from './phone-indicators';
import { loadPhoneChartPrefs, savePhoneChartPrefs, type PhoneChartPrefs } from './phone-chart-prefs';
import classes from './chart.module.css';
import { TOOL_BY_NAME, TOOL_MENUS, TOOLS } from './tools';

export interface PhoneChartTabProps {
  symbol: string;
  onNewOrder: () => void;
  onOpenMenu?: () => void;
}

/**
 * The phone's chart tab (spec section 2, "Mobile trading screen"): a toolbar with the menu toggle,
 * chart type (candles or area), show/hide chart, the period menu (M1 … MN, H1 first) and New order,
 * and a left column with the crosshair, the drawing tools, the magnet, "remove all", "save image"
 * (the desktop's clean, captioned picture) and the indicators (the desktop's, with the same
 * settings). It is the
 * terminal's chart (same controller, tools, layout kept on the server and trade levels) with
 * finger-sized controls, and fills the height its parent gives it.
 */
export function PhoneChartTab({ symbol, onNewOrder, onOpenMenu }: PhoneChartTabProps) {
  const symbols = useSymbols();
  const record = symbols.data?.data.find((s) => s.Symbol === symbol);
  if (!record) {
    return (
      <div className={classes.phoneTab} data-testid="phone-chart">
        <Center className={classes.phoneBody}>
          {symbols.isError ? (
            <Text c="red" size="sm">
              Could not load the symbols.
            </Text>
          ) : symbols.isSuccess ? (
            <Text c="dimmed" size="sm">
              {symbol} is not traded here.
            </Text>
          ) : (
            <span role="status" aria-label="Loading the chart">
              <Loader size="sm" />
            </span>
          )}
        </Center>
      </div>
    );
  }
  return <PhoneChart symbol={symbol} digits={record.digits} onNewOrder={onNewOrder} onOpenMenu={onOpenMenu} />;
}

/** The browser's storage, when it lets the page have one. */
function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function PhoneChart({ symbol, digits, onNewOrder, onOpenMenu }: PhoneChartTabProps & { digits: number }) {
  const [prefs, setPrefs] = useState<PhoneChartPrefs>(() => loadPhoneChartPrefs(storage()));
  const change = (next: Partial<PhoneChartPrefs>) =>
    setPrefs((current) => {
      const merged = { ...current, ...next };
      savePhoneChartPrefs(storage(), merged);
      return merged;
    });
  const { period, shown, crosshair } = prefs;
  const setPeriod = (p: PeriodName) => change({ period: p });
  const setShown = (on: boolean) => change({ shown: on });
  const setCrosshair = (on: boolean) => change({ crosshair: on });
  const model = useChartModel({ symbol, period, digits, initialType: prefs.type });
  const setType = (type: ChartType) => {
    model.onType(type);
    change({ type: type === 'area' ? 'area' : 'candle' });
  };
  const label = `${symbol} chart, ${period}`;
  const area = model.type === 'area';
  return (
    <div className={classes.phoneTab} data-testid="phone-chart">
      <div className={classes.phoneToolbar} role="toolbar" aria-label="Chart toolbar">
        {onOpenMenu && (
          <ActionIcon size={44} variant="subtle" color="gray" aria-label="Menu" onClick={onOpenMenu}>
            <IconMenu2 size={22} />
          </ActionIcon>
        )}
        <Tooltip label={area ? 'Area chart: on' : 'Area chart: off (candles)'} withArrow events={{ hover: true, focus: false, touch: false }}>
          <ActionIcon size={44} variant={area ? 'light' : 'subtle'} color={area ? 'blue' : 'gray'} aria-label="Area chart" aria-pressed={area} onClick={() => setType(area ? 'candle' : 'area')}>
            {area ? <IconChartArea size={22} /> : <IconChartCandle size={22} />}
          </ActionIcon>
        </Tooltip>
        {/* Named by what a press does: the chart (candles, drawings, trade levels) goes, or comes back. */}
        <Tooltip label={shown ? 'Hide the chart (show prices only)' : 'Show the chart'} withArrow events={{ hover: true, focus: false, touch: false }}>
          <ActionIcon size={44} variant={shown ? 'subtle' : 'light'} color="gray" aria-label={shown ? 'Hide chart' : 'Show chart'} onClick={() => setShown(!shown)}>
            {shown ? <IconEyeOff size={22} /> : <IconEye size={22} />}
          </ActionIcon>
        </Tooltip>
        <Menu position="bottom-start" shadow="md" withinPortal>
          <Menu.Target>
            <Button variant="default" className={classes.touchTarget} rightSection={<IconChevronDown size={14} />} aria-label={`Chart period ${period}`} px={10}>
              {period}
            </Button>
          </Menu.Target>
          <Menu.Dropdown aria-label="Chart period">
            {PERIOD_NAMES.map((p) => (
              <Menu.Item key={p} className={classes.touchMenuItem} onClick={() => setPeriod(p)} aria-current={p === period || undefined} fw={p === period ? 700 : undefined}>
                {p}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <div className={classes.spacer} />
        <Button className={classes.touchTarget} leftSection={<IconPlus size={18} />} onClick={onNewOrder} px={12}>
          New order
        </Button>
      </div>
      <div className={classes.phoneBody}>{shown ? <PhoneCanvas model={model} crosshair={crosshair} onCrosshair={setCrosshair} label={label} /> : <HiddenChart symbol={symbol} digits={digits} onShow={() => setShown(true)} />}</div>
      <ChartModelDialogs model={model} touch />
    </div>
  );
}

/** The tool column and the chart. */
function PhoneCanvas({ model, crosshair, onCrosshair, label }: { model: ChartModel; crosshair: boolean; onCrosshair(on: boolean): void; label: string }) {
  const stage = useChartStage(model, { crosshair, touch: true });
  const [confirmClear, setConfirmClear] = useState(false);
  const icons = MENU_ICONS(22);
  const { layout, loaded, magnet } = model;
  return (
    <>
      <div className={classes.toolColumn} role="toolbar" aria-orientation="vertical" aria-label="Chart tools">
        <ActionIcon size={44} variant={crosshair ? 'filled' : 'subtle'} color={crosshair ? 'blue' : 'gray'} aria-label="Crosshair" aria-pressed={crosshair} onClick={() => onCrosshair(!crosshair)}>
          <IconCrosshair size={22} />
        </ActionIcon>
        {TOOL_MENUS.map((m) => (
          <Menu key={m.menu} position="right-start" shadow="md" withinPortal>
            <Menu.Target>
              <ActionIcon
                size={44}
                variant={stage.tool && TOOL_BY_NAME.get(stage.tool)?.menu === m.menu ? 'light' : 'subtle'}
                color="gray"
                disabled={!loaded || stage.full}
                aria-label={`${m.label} drawing tools`}
              >
                {icons[m.menu]}
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown aria-label={`${m.label} drawing tools`}>
              <Menu.Label>{m.label}</Menu.Label>
              {TOOLS.filter((t) => t.menu === m.menu).map((t) => (
                <Menu.Item key={t.name} className={classes.touchMenuItem} onClick={() => stage.pick(t.name)} data-tool={t.name}>
                  {t.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ))}
        <ActionIcon size={44} variant={magnet ? 'filled' : 'subtle'} color={magnet ? 'blue' : 'gray'} aria-label="Magnet to OHLC" aria-pressed={magnet} onClick={() => model.onMagnet(!magnet)}>
          <IconMagnet size={22} />
        </ActionIcon>
        <ActionIcon size={44} variant="subtle" color="gray" aria-label="Remove all drawings" disabled={!layout.drawings.length} onClick={() => setConfirmClear(true)}>
          <IconTrash size={22} />
        </ActionIcon>
        <ActionIcon size={44} variant="subtle" color="gray" aria-label="Save image" disabled={stage.load.status !== 'ready'} onClick={stage.saveImage}>
          <IconCamera size={22} />
        </ActionIcon>
        <span className={classes.toolColumnDivider} aria-hidden />
        <PhoneIndicators model={model} />
      </div>
      <div className={classes.phoneCanvas}>
        <ChartStage stage={stage} model={model} label={label} touch />
        {model.save.state === 'failed' && (
          <div className={classes.phoneSaveStatus}>
            <SaveStatus save={model.save} onRetry={model.onRetrySave} />
          </div>
        )}
      </div>
      <ConfirmRemoveAll opened={confirmClear} onClose={() => setConfirmClear(false)} model={model} />
    </>
  );
}

/** With the chart hidden: the symbol's live prices, and the way back to the chart. */
function HiddenChart({ symbol, digits, onShow }: { symbol: string; digits: number; onShow(): void }) {
  const q = useQuote(symbol)?.quote;
  return (
    <div className={classes.hiddenChart} data-testid="chart-hidden">
      <Text fw={600}>{symbol}</Text>
      <div className={classes.hiddenQuote}>
        <span>
          <Text span size="xs" c="dimmed">
            Bid
          </Text>{' '}
          <span className="tp-figure">{formatPrice(q?.bid, digits)}</span>
        </span>
        <span>
          <Text span size="xs" c="dimmed">
            Ask
          </Text>{' '}
          <span className="tp-figure">{formatPrice(q?.ask, digits)}</span>
        </span>
      </div>
      <Text size="sm" c="dimmed">
        The chart is hidden.
      </Text>
      <Button variant="default" className={classes.touchTarget} leftSection={<IconEye size={18} />} onClick={onShow}>
        Show chart
      </Button>
    </div>
  );
}
