import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server serves web/dist on the same origin as the API; in development Vite proxies /api to it.
export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } } },
  build: { outDir: 'dist', emptyOutDir: true },
});
