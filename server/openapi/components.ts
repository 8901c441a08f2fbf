// The schemas the API document names as components. A recursive schema must be one: JSON schema can
// describe it only by a reference to itself, and an unnamed reference points nowhere. The registry is
// the document's own, so naming a schema here changes nothing in how it validates.
import { z } from 'zod';
import { sidebarItemSchema } from '../../contracts/permissions';
import { groupShape } from '../../contracts/query-tree';

export const componentRegistry = z.registry<{ id: string }>();
componentRegistry.add(groupShape, { id: 'QueryGroup' });
componentRegistry.add(sidebarItemSchema, { id: 'SidebarItem' });
