// The OpenAPI document's registration: the zod provider's transforms (routes' zod schemas → JSON
// schema, and the schemas registered with an id → components) plus what zod cannot know — public routes
// need no token, every operation has an operationId, paths have no trailing slash, and OpenAPI 3.0's
// `nullable` sits beside a `type`. The document must stay valid: server/openapi/openapi.test.ts lints it.
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { componentRegistry } from './components';
import { assignOperationIds, type OperationRef } from './operation-ids';

const zodTransform = createJsonSchemaTransform({ schemaRegistry: componentRegistry });
const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: componentRegistry });

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;

/**
 * Per route: the zod transform, then the URL without a trailing slash (a route at `/` under a prefix is
 * served with and without one; the document names it once), and `security: []` on what needs no token
 * (routes with `config.public`, and everything outside /api, which the auth gate never checks).
 */
export const routeTransform: SwaggerTransform = (input) => {
  const { schema, url } = zodTransform(input as Parameters<typeof zodTransform>[0]);
  const isPublic = input.route.config?.public === true || !url.startsWith('/api/');
  return {
    schema: isPublic ? { ...schema, security: [] } : schema,
    url: url.length > 1 ? url.replace(/\/+$/, '') : url,
  };
};

/** The whole document: components from the zod registry, the server it is served from, operationIds, nullable. */
export function documentTransform(serverUrl: string): SwaggerTransformObject {
  return (input) => {
    const document = zodTransformObject(input) as Json & { paths?: Record<string, Json> };
    const operations: (OperationRef & { operation: Json })[] = [];
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of METHODS) {
        const operation = item[method] as Json | undefined;
        if (operation) operations.push({ method: method.toUpperCase(), path, operation });
      }
    }
    const ids = assignOperationIds(operations);
    for (const ref of operations) {
      const operationId = ids.get(ref);
      if (operationId) ref.operation.operationId = operationId;
    }
    nullableBesideType(document);
    return { ...document, servers: [{ url: serverUrl, description: 'This server' }] };
  };
}

/**
 * OpenAPI 3.0 allows `nullable` only beside a `type`, but zod writes a nullable union as
 * `{ anyOf: [...], nullable: true }`: the null goes onto each branch instead (the same values), and a
 * typeless schema that already allows anything loses the keyword.
 */
function nullableBesideType(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullableBesideType(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.nullable === true && schema.type === undefined && schema.$ref === undefined) {
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) {
        schema[key] = branches.map((branch: Json) =>
          branch.type !== undefined ? { ...branch, nullable: true } : branch,
        );
      }
    }
    delete schema.nullable;
  }
  for (const value of Object.values(schema)) nullableBesideType(value);
}
