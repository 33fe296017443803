// Mantine's ColorInput (and its picker) in a file of its own, so it downloads on first use (see color-field.tsx).
export { ColorInput } from '@mantine/core';
