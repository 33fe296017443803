import { TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { toastSuccess } from '../ui/toast';

/** An amount in USD as a person types it: digits and at most two decimals. */
export function AmountInput({ label, value, onChange, error, description }: { label: string; value: string; onChange: (v: string) => void; error?: string; description?: string }) {
  return (
    <TextInput
      label={label}
      description={description}
      inputMode="decimal"
      placeholder="0.00"
      value={value}
      onChange={(e) => {
        const typed = e.currentTarget.value.trim();
        // '1,234.50' has thousands separators; '100,50' (no point) is a decimal comma, never 10050.
        const v = /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(typed) ? typed.replace(/,/g, '') : typed.replace(',', '.');
        if (/^\d{0,12}(\.\d{0,2})?$/.test(v)) onChange(v);
      }}
      error={error}
      rightSection={<span style={{ fontSize: 12, color: 'var(--mantine-color-dimmed)' }}>USD</span>}
      rightSectionWidth={48}
      styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
      size="md"
    />
  );
}

/** The client-side check of an amount before it is sent; the server checks again. */
export function amountError(value: string, limitLabel: string): string | undefined {
  if (value.trim() === '') return `Please enter the ${limitLabel} amount.`;
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(value) || Number(value) <= 0) return 'Enter an amount above 0 with at most 2 decimals.';
  return undefined;
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * What the deposit and withdrawal forms share: one idempotency key per filled-in form (a double
 * click or a retry after a time-out files one request; a changed form is a new request, since the
 * server refuses a reused key with another body), and the outcome as a message and a toast.
 * `requests` are the trader's requests of the form's kind: a success message speaks of the
 * request it filed ("please wait for approval"), so it goes once that request is no longer
 * pending (cancelled from the list beside the form, or decided).
 */
export function useRequestForm(formValues: readonly unknown[], requests?: readonly { id: number; status: string }[]) {
  const [message, setMessage] = useState<{ text: string; ok: boolean; requestId?: number } | null>(null);
  const key = useRef(newIdempotencyKey());
  useEffect(() => {
    key.current = newIdempotencyKey();
    // The form's values are the dependencies: a new key whenever one of them changes.
  }, formValues);
  const filed = message?.ok && message.requestId !== undefined ? requests?.find((r) => r.id === message.requestId) : undefined;
  return {
    message: filed && filed.status !== '0' ? null : message,
    clearMessage: () => setMessage(null),
    idempotencyKey: () => key.current,
    /** Callbacks for the mutation; `onFiled` clears the form. */
    outcome: (onFiled: () => void) => ({
      onSuccess: (answer: { message: string; id: number }) => {
        setMessage({ text: answer.message, ok: true, requestId: answer.id });
        toastSuccess(answer.message);
        onFiled();
        key.current = newIdempotencyKey();
      },
      onError: (error: unknown) => setMessage({ text: errorMessage(error), ok: false }),
    }),
  };
}
