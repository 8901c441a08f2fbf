import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
// The dev server proxies everything that is not the SPA to the API server (see scripts/dev.mjs).
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@contracts': here('./contracts'),
      '@': here('./src'),
      // Chakra's theme pieces one module at a time, for the light public system (src/ui/theme-public.ts).
      '@chakra-theme': here('./node_modules/@chakra-ui/react/dist/esm/theme'),
    },
  },
  build: { outDir: 'dist', sourcemap: true, manifest: true, chunkSizeWarningLimit: 800 },
  server: {
    port: Number(process.env.PORT ?? 3000),
    host: process.env.HOST ?? '127.0.0.1',
    proxy: {
      '/api': apiTarget,
      '/files': apiTarget,
      '/mqtt': { target: apiTarget, ws: true },
      '/engine.io': { target: apiTarget, ws: true },
    },
  },
});
