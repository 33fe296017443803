import { TextInput, type ColorInputProps, type TextInputProps } from '@mantine/core';
import { lazy, Suspense } from 'react';

/** Mantine's colour input and picker, downloaded when a colour is first edited (a selected drawing, an indicator's settings). */
const LazyColorInput = lazy(async () => ({ default: (await import('./color-input')).ColorInput }));

/**
 * A colour field: Mantine's ColorInput once its code is here; meanwhile a read-only field of the
 * same size and label showing the colour, so nothing moves when the picker arrives.
 */
export function ColorField(props: ColorInputProps) {
  const { size, w, label, value, classNames } = props;
  return (
    <Suspense fallback={<TextInput size={size} w={w} label={label} aria-label={props['aria-label']} classNames={classNames as TextInputProps['classNames']} readOnly value={value ?? ''} />}>
      <LazyColorInput {...props} />
    </Suspense>
  );
}
