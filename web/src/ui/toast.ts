import { notifications } from '@mantine/notifications';

/** The spec's toast life (section 9); enter and exit animations are 300 ms (main.tsx). */
export const TOAST_MS = 3000;

export function toastSuccess(message: string, title?: string): void {
  notifications.show({ message, title, color: 'green', autoClose: TOAST_MS });
}

export function toastError(message: string, title?: string): void {
  notifications.show({ message, title, color: 'red', autoClose: TOAST_MS });
}

export function toast(options: { title?: string; message: string; color: string }): void {
  notifications.show({ ...options, autoClose: TOAST_MS });
}
