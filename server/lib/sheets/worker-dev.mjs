// The sheet worker when the server runs from its TypeScript sources (tsx, vitest): a worker thread
// starts without the parent's loaders, so it registers tsx before loading worker.ts. The bundled
// server (scripts/build-server.mjs) starts dist-server/sheet-worker.mjs instead.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
