// Response serialisation (issue 28). Every route's answer is encoded by its zod schema, which checks it
// field by field and strips what the schema does not name, then written by JSON.stringify. On the hot
// list pages (ten to a hundred rows of thirty fields, 50 requests at once) that walk is about a tenth
// of the server's CPU, so the schemas marked with `compiledResponse` are written instead by a
// serializer fast-json-stringify compiles from their JSON Schema: it too writes only the properties the
// schema names. It does not check types, so under the tests (VITEST) zod's writer runs too: a wrong
// answer still fails there, and so does any difference between the two writers. A schema JSON Schema cannot express (dates, transforms) keeps
// the zod path.
import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serializer = (data: unknown) => string;

const marked = new WeakSet<z.ZodType>();
const compiled = new WeakMap<z.ZodType, Serializer | null>();

/** Marks a response schema to be written by a compiled serializer (see above); answers the schema. */
export function compiledResponse<T extends z.ZodType>(schema: T): T {
  marked.add(schema);
  return schema;
}

/**
 * zod's JSON Schema, as the serializer wants it: `additionalProperties: false` dropped (the serializer
 * leaves unnamed properties out anyway, and with it an object holding one would match no branch of a
 * union), and "this or null" written as `nullable`, which it writes without trying each branch in turn.
 */
function forSerializer(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forSerializer);
  if (!node || typeof node !== 'object') return node;
  const { additionalProperties, ...rest } = node as Record<string, unknown>;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, forSerializer(value)]),
  );
  if (additionalProperties !== undefined && additionalProperties !== false)
    copy.additionalProperties = forSerializer(additionalProperties);
  const branches = copy.anyOf as Record<string, unknown>[] | undefined;
  if (branches?.length === 2) {
    const other = branches.find((branch) => branch.type !== 'null');
    if (other && branches.some((branch) => branch.type === 'null' && Object.keys(branch).length === 1)) {
      const { anyOf: _, ...outer } = copy;
      return { ...outer, ...other, nullable: true };
    }
  }
  return copy;
}

/** The compiled writer of a schema, or null when its JSON Schema cannot say what zod would write. */
export function compileSerializer(schema: z.ZodType): Serializer | null {
  if (compiled.has(schema)) return compiled.get(schema) ?? null;
  let serializer: Serializer | null = null;
  try {
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    serializer = fastJson(forSerializer(jsonSchema) as Parameters<typeof fastJson>[0]) as Serializer;
  } catch {
    serializer = null;
  }
  compiled.set(schema, serializer);
  return serializer;
}

const checkedUnderTests = Boolean(process.env.VITEST);

type RouteSchema = Parameters<typeof zodSerializerCompiler>[0];

/** The app's serializer compiler: compiled for the marked schemas, zod's for every other. */
export function serializerCompiler(route: RouteSchema): Serializer {
  const zodSerializer = zodSerializerCompiler(route) as Serializer;
  const schema = route.schema as z.ZodType;
  if (!marked.has(schema)) return zodSerializer;
  const fast = compileSerializer(schema);
  if (!fast) return zodSerializer;
  if (!checkedUnderTests) return fast;
  return (data) => {
    // Throws the ResponseSerializationError a wrong answer would get from zod, then holds the two
    // writers to the same answer, so every API test over a marked route checks the compiled one.
    const expected = zodSerializer(data);
    const written = fast(data);
    if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected)))
      throw new Error(
        `The compiled serializer of ${route.method} ${route.url} wrote ${written}; zod wrote ${expected}`,
      );
    return written;
  };
}
