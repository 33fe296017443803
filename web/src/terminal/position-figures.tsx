import { signOf, formatUsd } from '../format/format';
import classes from './positions-panel.module.css';

/* A position's side and money as every positions view writes them (the table, history, the phone's sheet and list, the close dialogs). */

/** A profit with its sign and colour; blank when it is not a number (spec). */
export function SignedMoney({ value, delayed = false, testId }: { value: string | null; delayed?: boolean; testId?: string }) {
  const sign = signOf(value);
  const tone = delayed ? classes.delayed : sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : '';
  return (
    <span className={tone} data-testid={testId}>
      {value === null ? '' : `${sign > 0 ? '+' : ''}${formatUsd(value)}`}
    </span>
  );
}

export function SideText({ side }: { side: 'Buy' | 'Sell' | 'buy' | 'sell' }) {
  const buy = side.toLowerCase() === 'buy';
  return <span className={buy ? 'tp-buy' : 'tp-sell'}>{buy ? 'Buy' : 'Sell'}</span>;
}

