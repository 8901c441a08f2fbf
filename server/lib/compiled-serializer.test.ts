// The compiled response serializer writes what zod's would (the properties the schema names, nothing
// else), falls back to zod where JSON Schema cannot say what to write, and still fails a wrong answer
// under the tests.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { productListSchema } from '../../contracts/catalog';
import { contactListSchema } from '../../contracts/contacts';
import { sellerListSchema } from '../../contracts/sellers';
import { compiledResponse, compileSerializer, serializerCompiler } from './compiled-serializer';

const rowSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  note: z.string().nullable(),
  nickname: z.string().optional(),
  status: z.enum(['Active', 'Inactive']),
  price: z.number(),
  tags: z.array(z.object({ id: z.string(), label: z.string() })),
  address: z.object({ city: z.string(), postcode: z.string().nullable() }).nullable(),
});
const listSchema = z.object({ result: z.array(rowSchema), count: z.number().int(), countExact: z.boolean() });

const row = {
  id: '0b9c2a3e-6d0f-4f4e-9a55-2d3f1a0c7b11',
  name: 'Ünïcode "quoted" \\ </script>',
  note: null,
  status: 'Active',
  price: 12.5,
  tags: [{ id: 't1', label: 'Shoes', internal: 'dropped' }],
  address: { city: 'Pune', postcode: null, secret: 'dropped' },
  passwordHash: 'must never be written',
};

const serializerOf = (schema: z.ZodType) =>
  serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never);

describe('compiled response serializer', () => {
  it('writes the same JSON as zod, leaving out every property the schema does not name', () => {
    const data = {
      result: [row, { ...row, nickname: 'N', address: null }],
      count: 2,
      countExact: true,
      extra: 1,
    };
    const fast = compileSerializer(listSchema);
    expect(fast).not.toBeNull();
    const written = JSON.parse((fast as (value: unknown) => string)(data));
    expect(written).toEqual(JSON.parse(JSON.stringify(listSchema.encode(data as never))));
    expect(JSON.stringify(written)).not.toContain('dropped');
    expect(JSON.stringify(written)).not.toContain('passwordHash');
  });

  it('is used for a marked schema only', () => {
    const marked = compiledResponse(z.object({ a: z.string() }));
    const unmarked = z.object({ a: z.string() });
    const data = { a: 'x', b: 'hidden' };
    expect(serializerOf(marked)(data)).toBe('{"a":"x"}');
    expect(serializerOf(unmarked)(data)).toBe('{"a":"x"}');
    expect(compileSerializer(unmarked)).not.toBeNull();
  });

  it('keeps the zod path for a schema JSON Schema cannot express', () => {
    const withDate = compiledResponse(z.object({ at: z.date() }));
    expect(compileSerializer(withDate)).toBeNull();
    expect(() => serializerOf(withDate)({ at: new Date() })).not.toThrow();
  });

  it('still refuses a wrong answer under the tests', () => {
    const marked = compiledResponse(z.object({ count: z.number() }));
    expect(() => serializerOf(marked)({ count: 'many' })).toThrow(/Response doesn't match the schema/);
  });

  it('compiles the hot list pages’ schemas (a change that stops it would silently slow them)', () => {
    for (const schema of [sellerListSchema, productListSchema, contactListSchema])
      expect(compileSerializer(schema)).not.toBeNull();
  });
});
