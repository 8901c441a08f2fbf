// The layering check fails when it should: a made-up tree with a wrong-way import of each kind the
// rules forbid, and a cycle, each reported with its file and import.
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, ruleViolations, staleAllowances } from './import-graph';
import { LAYER_RULES } from './rules';

const tree = (files: Record<string, string>) => importGraph(new Map(Object.entries(files)));

describe('the layering check', () => {
  it('reads static, type-only, re-exported, dynamic and aliased imports, not comments, strings or vi.mock', () => {
    const edges = tree({
      'src/a.ts': [
        "import type { B } from './b';",
        "export { c } from './c';",
        "const d = () => import('./d');",
        "type E = typeof import('./e');",
        "import { f } from '@/f';",
        "import { z } from 'zod';",
        "// import { g } from './g';",
        'const text = "import(\'./h\')";',
        "vi.mock('./i');",
      ].join('\n'),
      'src/b.ts': '',
      'src/c/index.ts': '',
      'src/d.tsx': '',
      'src/e.ts': '',
      'src/f.ts': '',
    });
    expect(edges.map((edge) => edge.to)).toEqual([
      'src/b.ts',
      'src/c/index.ts',
      'src/d.tsx',
      'src/e.ts',
      'src/f.ts',
    ]);
  });

  it('names the file, the import and the rule of every wrong-way import', () => {
    const edges = tree({
      'contracts/orders.ts': "import { money } from '../src/lib/money';",
      'server/lib/mail.ts': "import type { User } from '../modules/users/repository';",
      'server/modules/users/repository.ts': "import { formatDate } from '../../../src/lib/format';",
      'src/features/orders/OrdersPage.tsx': "import { SellerBadge } from '../sellers/SellerBadge';",
      'src/features/orders/orders.test.tsx': "import { SellerBadge } from '../sellers/SellerBadge';",
      'src/features/sellers/SellerBadge.tsx': "import { http } from '../../services/http';",
      'src/machines/order.machine.ts': "import { http } from '../services/http';",
      'src/services/http.ts': "import { ordersPage } from '../features/orders/OrdersPage';",
      'src/ui/table.tsx': "export { OrdersPage } from '../features/orders/OrdersPage';",
      'src/lib/money.ts': '',
      'src/lib/format.ts': '',
    });
    expect(ruleViolations(edges, LAYER_RULES)).toEqual([
      "contracts/orders.ts imports '../src/lib/money' (src/lib/money.ts): contracts import nothing of src or server (both sides import contracts)",
      "server/modules/users/repository.ts imports '../../../src/lib/format' (src/lib/format.ts): server imports nothing of src (shared code lives in contracts/domain)",
      "src/features/orders/OrdersPage.tsx imports '../sellers/SellerBadge' (src/features/sellers/SellerBadge.tsx): a feature imports no other feature (shared pieces live in src/ui, src/services or src/lib)",
      "src/machines/order.machine.ts imports '../services/http' (src/services/http.ts): src/machines import no services or features",
      "src/services/http.ts imports '../features/orders/OrdersPage' (src/features/orders/OrdersPage.tsx): src/services import no features",
      "src/ui/table.tsx imports '../features/orders/OrdersPage' (src/features/orders/OrdersPage.tsx): src/ui and src/lib import no features",
      "server/lib/mail.ts imports '../modules/users/repository' (server/modules/users/repository.ts): server base folders (lib, db, realtime, jobs, plugins) import no module",
    ]);
  });

  it('lets an allowed import pass and flags an allowance that matches no import', () => {
    const edges = tree({
      'server/jobs/queue.ts': "import { notify } from '../modules/notifications/service';",
      'server/modules/notifications/service.ts': '',
    });
    const rule = {
      name: 'server base folders import no module',
      from: (file: string) => file.startsWith('server/jobs/'),
      to: (file: string) => file.startsWith('server/modules/'),
    };
    const allowed = {
      ...rule,
      allow: [
        { from: 'server/jobs/queue.ts', to: 'server/modules/notifications/service.ts', why: 'for the test' },
        { from: 'server/jobs/worker.ts', to: 'server/modules/auth/tokens.ts', why: 'gone' },
      ],
    };
    expect(ruleViolations(edges, [rule])).toHaveLength(1);
    expect(ruleViolations(edges, [allowed])).toEqual([]);
    expect(staleAllowances(edges, [allowed])).toEqual([
      'allowance server/jobs/worker.ts → server/modules/auth/tokens.ts (server base folders import no module) matches no import',
    ]);
  });

  it('names each cycle by the chain of imports that closes it', () => {
    const edges = tree({
      'src/ui/notify.ts': "type T = typeof import('./toaster');",
      'src/ui/toaster.tsx': "import { TOAST_TYPES } from './toast-types';",
      'src/ui/toast-types.ts': "import type { NotifyOptions } from './notify';",
      'src/ui/clipboard.ts': "import { notify } from './notify';",
      'server/db/client.ts': "export const open = () => import('./pglite');",
      'server/db/pglite.ts': "import type { Db } from './client';",
    });
    expect(importCycles(edges)).toEqual([
      "import cycle: server/db/client.ts imports './pglite' (server/db/pglite.ts) → server/db/pglite.ts imports './client' (server/db/client.ts)",
      "import cycle: src/ui/notify.ts imports './toaster' (src/ui/toaster.tsx) → src/ui/toaster.tsx imports './toast-types' (src/ui/toast-types.ts) → src/ui/toast-types.ts imports './notify' (src/ui/notify.ts)",
    ]);
  });

  it('finds no cycle in a tree whose imports run one way', () => {
    const edges = tree({
      'src/ui/notify.ts': "import type { NotifyOptions } from './toast-options';",
      'src/ui/toaster.tsx': "import { TOAST_TYPES } from './toast-options';",
      'src/ui/toast-options.ts': '',
    });
    expect(importCycles(edges)).toEqual([]);
  });
});
