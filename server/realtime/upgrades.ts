// HTTP upgrades (WebSocket handshakes) on the app's one port, routed by path. The MQTT broker (/mqtt)
// and socket.io (/engine.io/) share the http server; each used to decide on its own what to do with
// an upgrade that is not theirs, and whichever destroyed "foreign" upgrades broke the other. Here one
// listener knows every claimed path, in whatever order the plugins registered, and only an upgrade
// nobody claimed is refused.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface UpgradeRouter {
  /** Upgrades whose path is exactly `path` go to `handler`. */
  handle(path: string, handler: UpgradeHandler): void;
  /**
   * Upgrades whose path starts with `prefix` belong to a library that listens on the http server
   * itself (engine.io): the router leaves them alone.
   */
  claim(prefix: string): void;
  /** Forgets a path or prefix again (its plugin closed). */
  release(pathOrPrefix: string): void;
}

const routers = new WeakMap<Server, UpgradeRouter>();

function pathOf(request: IncomingMessage): string {
  return (request.url ?? '').split('?')[0] ?? '';
}

function refuse(socket: Duplex) {
  // An answer instead of a silent reset, so a misconfigured client sees why.
  socket.on('error', () => {});
  if (socket.writable) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  else socket.destroy();
}

/** The app's upgrade router, created on first use (so the plugins using it may register in any order). */
export function upgradeRouter(app: FastifyInstance): UpgradeRouter {
  const server = app.server;
  const existing = routers.get(server);
  if (existing) return existing;

  const handlers = new Map<string, UpgradeHandler>();
  const claimedPrefixes = new Set<string>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = pathOf(request);
    const handler = handlers.get(path);
    if (handler) return handler(request, socket, head);
    for (const prefix of claimedPrefixes) if (path.startsWith(prefix)) return;
    refuse(socket);
  };
  server.on('upgrade', onUpgrade);
  app.addHook('preClose', async () => {
    server.off('upgrade', onUpgrade);
    routers.delete(server);
  });

  const router: UpgradeRouter = {
    handle(path, handler) {
      if (handlers.has(path)) throw new Error(`HTTP upgrades at ${path} are already handled`);
      handlers.set(path, handler);
    },
    claim(prefix) {
      claimedPrefixes.add(prefix);
    },
    release(pathOrPrefix) {
      handlers.delete(pathOrPrefix);
      claimedPrefixes.delete(pathOrPrefix);
    },
  };
  routers.set(server, router);
  return router;
}
