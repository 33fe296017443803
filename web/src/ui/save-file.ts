/**
 * Saves a file the app made or fetched (a CSV export) through the browser's
 * download, under `name`.
 */
export function saveFile(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked once the browser has surely started the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
