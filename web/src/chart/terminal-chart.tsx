import { ActionIcon, Button, Menu, Modal, SegmentedControl, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconArrowsMaximize, IconBellPlus, IconCamera, IconChartArea, IconChartCandle, IconChartLine, IconChevronDown, IconMagnet, IconMathFunction, IconTrash, IconX } from '@tabler/icons-react';
import { MAX_CHART_INDICATORS } from '@tradeport/contracts';
import { PERIOD_NAMES, type PeriodName } from '@tradeport/contracts/periods';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { ChartType } from './chart-controller';
import { ChartModelDialogs, useChartModel, type ChartModel } from './chart-model';
import { ChartStage, ConfirmRemoveAll, MENU_ICONS, OneToolButton, removableDrawings, SaveStatus, useChartStage, type PricePick } from './chart-stage';
import classes from './chart.module.css';
import { addIndicator, IndicatorMenuItems, removeIndicator } from './indicator-picker';
import { indicatorTitle } from './indicators';
import { TOOL_BY_NAME, TOOL_MENUS, TOOLS } from './tools';
import type { AlertTarget } from '../terminal/alert-modal';

/** The price-alert dialog, downloaded when first opened. */
const AlertModal = lazy(() => import('../terminal/alert-modal').then((m) => ({ default: m.AlertModal })));

/**
 * A chart with its toolbar: chart type, the four drawing-tool menus, magnet, indicators, remove
 * all, save image and (in the panel) the larger view. The panel and the larger view are two of
 * these over the same layout.
 */
function ChartWorkspace({ model, height, large, onLarger, label, picking = null }: { model: ChartModel; height: number | string; large: boolean; onLarger?: () => void; label: string; picking?: PricePick | null }) {
  const { layout, loaded, type, magnet } = model;
  const stage = useChartStage(model);
  const { tool, full, load } = stage;
  const [confirmClear, setConfirmClear] = useState(false);
  const suffix = large ? ' (larger view)' : '';

  return (
    <div className={classes.workspace} style={{ height }} data-testid={large ? 'chart-large' : 'chart-panel'}>
      <div className={classes.toolbar} role="toolbar" aria-label={`Chart tools${suffix}`}>
        <SegmentedControl
          size="xs"
          transitionDuration={0}
          aria-label="Chart type"
          className={classes.typeControl}
          value={type}
          onChange={(v) => model.onType(v as ChartType)}
          data={[
            { value: 'candle', label: <IconLabel icon={<IconChartCandle size={14} />} text="Candles" /> },
            { value: 'line', label: <IconLabel icon={<IconChartLine size={14} />} text="Line" /> },
            { value: 'area', label: <IconLabel icon={<IconChartArea size={14} />} text="Area" /> },
          ]}
        />
        <span className={classes.divider} />
        {TOOL_MENUS.map((m) => (TOOLS.filter((t) => t.menu === m.menu).length === 1 ? (
          <OneToolButton key={m.menu} menu={m} stage={stage} disabled={!loaded || full} />
        ) : (
          <Menu key={m.menu} position="bottom-start" shadow="md" withinPortal>
            <Menu.Target>
              <Button
                size="compact-xs"
                variant={tool && TOOL_BY_NAME.get(tool)?.menu === m.menu ? 'light' : 'subtle'}
                color="gray"
                leftSection={MENU_ICONS(14)[m.menu]}
                rightSection={<IconChevronDown size={12} />}
                disabled={!loaded || full}
                aria-label={`${m.label} drawing tools`}
                className={classes.toolButton}
              >
                {m.label}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {TOOLS.filter((t) => t.menu === m.menu).map((t) => (
                <Menu.Item key={t.name} onClick={() => stage.pick(t.name)} data-tool={t.name} fz="sm">
                  {t.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )))}
        <Tooltip label={magnet ? 'Magnet to OHLC: on' : 'Magnet to OHLC: off'} withArrow>
          <ActionIcon variant={magnet ? 'filled' : 'subtle'} color={magnet ? 'blue' : 'gray'} aria-label="Magnet to OHLC" aria-pressed={magnet} onClick={() => model.onMagnet(!magnet)}>
            <IconMagnet size={16} />
          </ActionIcon>
        </Tooltip>
        <span className={classes.divider} />
        <Menu position="bottom-start" shadow="md" withinPortal>
          <Menu.Target>
            <Button size="compact-xs" variant="subtle" color="gray" leftSection={<IconMathFunction size={14} />} rightSection={<IconChevronDown size={12} />} disabled={!loaded || layout.indicators.length >= MAX_CHART_INDICATORS} className={classes.toolButton}>
              Indicators
            </Button>
          </Menu.Target>
          <Menu.Dropdown className={classes.indicatorMenu}>
            <IndicatorMenuItems onAdd={(name) => addIndicator(model, name)} />
          </Menu.Dropdown>
        </Menu>
        <div className={classes.spacer} />
        <SaveStatus save={model.save} onRetry={model.onRetrySave} />
        <Tooltip label="Remove all drawings" withArrow>
          <ActionIcon variant="subtle" color="gray" aria-label="Remove all drawings" disabled={!removableDrawings(layout)} onClick={() => setConfirmClear(true)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Save image" withArrow>
          <ActionIcon variant="subtle" color="gray" aria-label="Save image" onClick={stage.saveImage} disabled={load.status !== 'ready'}>
            <IconCamera size={16} />
          </ActionIcon>
        </Tooltip>
        {onLarger && (
          <Tooltip label="Larger view" withArrow>
            <ActionIcon variant="subtle" color="gray" aria-label="Larger view" onClick={onLarger}>
              <IconArrowsMaximize size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </div>
      {layout.indicators.length > 0 && (
        <div className={classes.indicatorRow} aria-label={`Indicators on the chart${suffix}`} role="list">
          {layout.indicators.map((ind, i) => (
            <span key={`${i}-${ind.name}`} role="listitem" className={classes.indicatorChip}>
              <span className={classes.indicatorSwatch} style={{ background: ind.colors[0] }} />
              <button type="button" className={classes.indicatorName} onClick={() => model.onEditIndicator(i)} aria-label={`Settings of ${indicatorTitle(ind)}`}>
                {indicatorTitle(ind)}
              </button>
              <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Remove ${indicatorTitle(ind)}`} onClick={() => removeIndicator(model, i)}>
                <IconX size={12} />
              </ActionIcon>
            </span>
          ))}
        </div>
      )}
      <ChartStage stage={stage} model={model} label={label} picking={picking} />
      <ConfirmRemoveAll opened={confirmClear} onClose={() => setConfirmClear(false)} model={model} />
    </div>
  );
}

function IconLabel({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Tooltip label={text} withArrow openDelay={300}>
      <span className={classes.iconLabel}>
        {icon}
        <VisuallyHidden>{text}</VisuallyHidden>
      </span>
    </Tooltip>
  );
}

/**
 * The chart bar's bell, a menu: a new price alert on the chart's symbol in the alert dialog, or one
 * at a level clicked on the chart (`onPick` arms the pick; the chart hands the level to `picked`).
 * The dialog is downloaded at first use.
 */
export function PriceAlertButton({ symbol, picking, onPick, picked }: { symbol: string; picking: boolean; onPick(on: boolean): void; picked: AlertTarget | null }) {
  const [alert, setAlert] = useState<AlertTarget | null>(null);
  // The dialog's code is downloaded when it is first wanted, then stays mounted (so it can close smoothly).
  const [used, setUsed] = useState(false);
  const target = alert ?? picked;
  return (
    <>
      <Menu position="bottom-start" shadow="md" withinPortal>
        <Menu.Target>
          <ActionIcon variant={picking ? 'light' : 'subtle'} color={picking ? 'violet' : 'gray'} aria-label="Set a price alert" aria-pressed={picking}>
            <IconBellPlus size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Price alert on {symbol}</Menu.Label>
          <Menu.Item
            fz="sm"
            onClick={() => {
              onPick(false);
              setAlert({ kind: 'new', symbol });
              setUsed(true);
            }}
          >
            New alert…
          </Menu.Item>
          <Menu.Item fz="sm" onClick={() => onPick(true)}>
            At a level clicked on the chart
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {(used || picked) && (
        <Suspense fallback={null}>
          <AlertModal
            target={target}
            onClose={() => {
              setAlert(null);
              setUsed(true);
              onPick(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

/**
 * The terminal's chart: the selected symbol's candles with the live candle, chart types, drawing
 * tools, indicators, save image and a 1000×650 larger view; the drawings and indicators are the
 * trader's, kept per symbol on the server.
 */
export function TerminalChart({ symbol, period, digits, label, onPeriod, pickingAlert = false, onAlertPick }: { symbol: string; period: PeriodName; digits: number; label: string; onPeriod(period: PeriodName): void; pickingAlert?: boolean; onAlertPick?(level: number | null): void }) {
  const model = useChartModel({ symbol, period, digits });
  const [large, setLarge] = useState(false);
  const close = () => setLarge(false);
  // A price alert's level picked on the panel's chart (the bell armed it): a click on the candles gives it; Esc gives it up.
  const picking: PricePick | null =
    pickingAlert && onAlertPick ? { hint: `Price alert on ${symbol}: click its level on the chart`, onPick: (price) => onAlertPick(Number(price.toFixed(digits))), onCancel: () => onAlertPick(null) } : null;
  useEffect(() => {
    if (!pickingAlert || !onAlertPick) return;
    // Heard first (capture): an open menu's or tooltip's own Esc handling stops the key from bubbling.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onAlertPick(null);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [pickingAlert, onAlertPick]);
  return (
    <>
      <ChartWorkspace model={model} height="100%" large={false} onLarger={() => setLarge(true)} label={label} picking={picking} />
      {/* The spec's 1000×650 popup: the same chart, with its own period buttons (they change the panel's too). */}
      <Modal.Root opened={large} onClose={close} size={1000} centered padding="xs">
        <Modal.Overlay />
        <Modal.Content>
          <Modal.Header className={classes.largeHeader}>
            <Modal.Title className={classes.largeTitle}>
              {symbol} · {period}
            </Modal.Title>
            <SegmentedControl className={classes.largePeriod} aria-label="Chart period (larger view)" size="xs" transitionDuration={0} value={period} onChange={(v) => onPeriod(v as PeriodName)} data={[...PERIOD_NAMES]} />
            <Modal.CloseButton aria-label="Close the larger view" />
          </Modal.Header>
          <Modal.Body>{large && <ChartWorkspace model={model} height={600} large label={`${label}, larger view`} />}</Modal.Body>
        </Modal.Content>
      </Modal.Root>
      <ChartModelDialogs model={model} />
    </>
  );
}
