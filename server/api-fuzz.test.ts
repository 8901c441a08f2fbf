// Bad input against every route of the OpenAPI document: no answer may be a 5xx. For each operation a
// request that passes its schema is built from the document (with real ids of the demo data, so the
// handlers run), then every path parameter, query parameter and body field is replaced in turn by each
// class of bad input, and the whole body and query string are broken in their own ways. Requests go out
// as the admin, as a seller and anonymously, each from an address of its own (so
// the abuse limits do not hide the handlers); the bad inputs go to those the auth gate lets in.
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoute } from '../contracts/routes';
import { chatSessions, sellers, users } from './db/schema';
import { type ApiAs, apiAs, createTestApp, type TestApp, testBackends } from './test-support';

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  minimum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  parameters: Parameter[];
  body?: { type: 'json'; schema: JsonSchema } | { type: 'multipart' };
}

/** Values that satisfy the patterns this API uses, by field name. */
const KNOWN: Record<string, unknown> = {
  email: 'fuzz.user@example.com',
  phone: '+91 98765 43210',
  phoneNumber: '+91 90000 00003',
  sellerCode: 'FUZZ-1',
  password: 'Fuzz-passw0rd',
  token: 'f'.repeat(43),
  slug: 'fuzz-slug',
  query: 'a',
};

/** A value its schema accepts (where cheaply possible): enough to reach the handler. */
function valid(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return 'x';
  if (name in KNOWN) return KNOWN[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length)
    return valid(alternatives.find((s) => s.type !== 'null') ?? alternatives[0], name);
  if (schema.allOf?.length) return valid(schema.allOf[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return '6c1f4a52-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
      if (schema.format === 'email') return KNOWN.email;
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      return 'a'.repeat(Math.max(3, schema.minLength ?? 0));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => valid(schema.items));
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {}))
        object[key] = valid(property, key);
      return object;
    }
    default:
      return 'x';
  }
}

/** Bad values for one JSON field. */
const BAD_JSON_VALUES: [string, unknown][] = [
  ['NUL in text', 'a\u0000b'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', 'x\udfffy'],
  ['100 KB of text', 'x'.repeat(100_000)],
  ['empty text', ''],
  ['spaces', '   '],
  ['right-to-left override and emoji', '\u202e😀👩‍👩‍👧'],
  ['SQL', "' OR 1=1; DROP TABLE users; --"],
  ['HTML', '<script>alert(1)</script>'],
  ['a path', '../../../etc/passwd'],
  ['null', null],
  ['true', true],
  ['false', false],
  ['zero', 0],
  ['minus one', -1],
  ['a fraction', 1.5],
  ['a huge number', 1e300],
  ['beyond safe integers', 2 ** 53 + 1],
  ['an empty array', []],
  ['an array of null', [null]],
  ['an empty object', {}],
  ['an operator object', { $ne: 1, $gt: '' }],
  ['a number as text', '5'],
  ['a prototype key', JSON.parse('{"__proto__": {"polluted": 1}}')],
  ['deep nesting', JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`)],
];

/** Bad values for a path or query parameter, already percent-encoded. */
const BAD_URL_VALUES: [string, string][] = [
  ['NUL', 'a%00b'],
  ['an encoded lone surrogate (invalid UTF-8)', '%ED%A0%80'],
  ['a bare continuation byte', '%80'],
  ['broken percent-encoding', '%ZZ'],
  ['a lone percent', '%'],
  ['10 KB', 'a'.repeat(10_240)],
  ['empty', ''],
  ['minus one', '-1'],
  ['a huge number', '1e309'],
  ['NaN', 'NaN'],
  ['a fraction', '1.5'],
  ['an encoded slash', '..%2F..%2Fetc'],
  ['emoji', encodeURIComponent('😀')],
  ['SQL', encodeURIComponent("' OR 1=1 --")],
];

/** Bodies broken as a whole: [label, payload, content type]. */
const BAD_BODIES: [string, string | undefined, string | undefined][] = [
  ['no body', undefined, undefined],
  ['an empty JSON object', '{}', 'application/json'],
  ['a JSON array', '[]', 'application/json'],
  ['a JSON string', '"x"', 'application/json'],
  ['JSON null', 'null', 'application/json'],
  ['a JSON number', '12', 'application/json'],
  ['malformed JSON', '{"a": ', 'application/json'],
  ['an empty JSON body', '', 'application/json'],
  ['JSON nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'application/json'],
  ['JSON with a NUL key', '{"\\u0000": 1}', 'application/json'],
  ['plain text', 'hello', 'text/plain'],
  ['a form', 'a=1&b=2', 'application/x-www-form-urlencoded'],
  ['XML', '<a>1</a>', 'application/xml'],
  ['multipart without a boundary', 'x', 'multipart/form-data'],
  [
    'multipart cut short',
    '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    'multipart/form-data; boundary=XX',
  ],
  [
    'multipart with a bad part header',
    '--XX\r\nContent-Disposition\r\n\r\nabc\r\n--XX--',
    'multipart/form-data; boundary=XX',
  ],
  ['a wrong charset', '{"a":1}', 'application/json; charset=latin-9'],
];

/** Query strings broken as a whole. */
const BAD_QUERIES: [string, string][] = [
  ['a repeated key', 'skip=1&skip=2&limit=1&limit=5'],
  ['array brackets', 'skip[]=1&query[]=a'],
  ['object brackets', 'query[$ne]=1'],
  ['a NUL key', '%00=1'],
  ['broken percent-encoding', 'query=%ZZ&%E0%A4%A=1'],
  ['a huge query', `query=${'a'.repeat(50_000)}`],
];

describe.each(testBackends)('no 500 on any input (every route of the OpenAPI document), on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let operations: Operation[];
  const realIds: Record<string, string> = {};
  let address = 0;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const spec = t.app.swagger() as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Parameter[];
            requestBody?: { content: Record<string, { schema: JsonSchema }> };
            security?: unknown[];
          }
        >
      >;
    };
    operations = [];
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const json = op.requestBody?.content['application/json'];
        const multipart = op.requestBody?.content['multipart/form-data'];
        operations.push({
          method: method.toUpperCase() as Operation['method'],
          path,
          parameters: op.parameters ?? [],
          body: json ? { type: 'json', schema: json.schema } : multipart ? { type: 'multipart' } : undefined,
        });
      }
    }
    // Real ids of the demo data, so that requests reach past "not found" into the handlers.
    const [seller] = await t.database.db.select({ id: sellers.id }).from(sellers).limit(1);
    const [staff] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.role, 'Staff'));
    const [chat] = await t.database.db
      .select({ id: chatSessions.id, sessionId: chatSessions.sessionId })
      .from(chatSessions)
      .limit(1);
    realIds.seller = seller?.id as string;
    realIds.staff = staff?.id as string;
    realIds.chat = chat?.id as string;
    realIds.session = chat?.sessionId as string;
  });
  afterAll(() => t.close());

  /** A plausible value for a path parameter of this operation: a real id where one is known. */
  function pathValue(op: Operation, parameter: Parameter): string {
    if (parameter.name === 'sellerCode') return 'SEL-0001';
    // A real chat's event stream would stay open (as it should); an unknown one answers at once.
    if (parameter.name === 'sessionId' && !op.path.endsWith('/events')) return realIds.session as string;
    if (parameter.name === 'id') {
      if (op.path.includes('/sellers/')) return realIds.seller as string;
      if (op.path.includes('/staff/') || op.path.includes('/users/')) return realIds.staff as string;
      if (op.path.includes('/queryBot/') && !op.path.includes('/faqs/')) return realIds.chat as string;
    }
    return encodeURIComponent(String(valid(parameter.schema, parameter.name)));
  }

  interface Variant {
    label: string;
    path?: Record<string, string>;
    query?: Record<string, string> | string;
    body?: { payload: string | undefined; contentType: string | undefined };
  }

  function baseline(op: Operation): {
    path: Record<string, string>;
    query: Record<string, string>;
    body: Variant['body'];
  } {
    const path: Record<string, string> = {};
    const query: Record<string, string> = {};
    for (const parameter of op.parameters) {
      if (parameter.in === 'path') path[parameter.name] = pathValue(op, parameter);
      if (parameter.in === 'query' && parameter.required) {
        query[parameter.name] = encodeURIComponent(String(valid(parameter.schema, parameter.name)));
      }
    }
    const body =
      op.body?.type === 'json'
        ? { payload: JSON.stringify(valid(op.body.schema)), contentType: 'application/json' }
        : undefined;
    return { path, query, body };
  }

  function variants(op: Operation): Variant[] {
    const out: Variant[] = [{ label: 'a valid request' }];
    for (const parameter of op.parameters) {
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      for (const [label, value] of BAD_URL_VALUES) {
        out.push({
          label: `${parameter.in} ${parameter.name}: ${label}`,
          ...(parameter.in === 'path'
            ? { path: { [parameter.name]: value } }
            : { query: { [parameter.name]: value } }),
        });
      }
    }
    for (const [label, query] of BAD_QUERIES) out.push({ label: `query: ${label}`, query });
    if (op.method !== 'GET' && op.method !== 'DELETE') {
      for (const [label, payload, contentType] of BAD_BODIES) {
        out.push({ label: `body: ${label}`, body: { payload, contentType } });
      }
    }
    if (op.body?.type === 'json') {
      const good = valid(op.body.schema) as Record<string, unknown>;
      const fields = good && typeof good === 'object' && !Array.isArray(good) ? Object.keys(good) : [];
      for (const field of fields) {
        for (const [label, value] of BAD_JSON_VALUES) {
          out.push({
            label: `body ${field}: ${label}`,
            body: { payload: JSON.stringify({ ...good, [field]: value }), contentType: 'application/json' },
          });
        }
      }
    }
    return out;
  }

  async function send(op: Operation, variant: Variant, who: 'Admin' | 'Seller' | null) {
    const base = baseline(op);
    const path = op.path.replace(
      /\{(\w+)\}/g,
      (_, name: string) => variant.path?.[name] ?? base.path[name] ?? 'x',
    );
    const query =
      typeof variant.query === 'string'
        ? variant.query
        : Object.entries({ ...base.query, ...(typeof variant.query === 'object' ? variant.query : {}) })
            .map(([key, value]) => `${key}=${value}`)
            .join('&');
    const body = variant.body ?? base.body;
    address += 1;
    const options: InjectOptions = {
      method: op.method,
      url: query ? `${path}?${query}` : path,
      remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      headers: {
        ...(who ? { authorization: `Bearer ${as.tokens[who]}` } : {}),
        ...(body?.contentType ? { 'content-type': body.contentType } : {}),
      },
      ...(body?.payload !== undefined ? { payload: body.payload } : {}),
    };
    return withTimeout(t.app.inject(options), `${op.method} ${op.path} (${variant.label})`);
  }

  /** The auth gate's own refusal (server/plugins/auth.ts), as opposed to a handler's 401 or 403. */
  function refusedByGate(op: Operation, who: 'Admin' | 'Seller' | null, response: LightMyRequestResponse) {
    const error = safeJson(response);
    if (who === null) return response.statusCode === 401 && error?.code === 'TOKEN_MISSING';
    if (response.statusCode !== 403) return false;
    const url = op.path.replace(/\{(\w+)\}/g, ':$1');
    const guard = t.app.guardedRoutes.find((route) => route.method === op.method && route.url === url);
    if (!guard) return false;
    const name = findRoute(guard.route)?.name ?? guard.route;
    return error?.message === `You do not have permission to ${guard.action} ${name}.`;
  }

  it('answers every class of bad input to every route without a 5xx, with the error shape', {
    timeout: 600_000,
  }, async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    // Routes that change who may do what go last, so the rest run with the demo permissions.
    const ordered = [...operations].sort(
      (a, b) =>
        Number(/Permissions|defaultPermissions/.test(a.path)) -
        Number(/Permissions|defaultPermissions/.test(b.path)),
    );
    for (const op of ordered) {
      // A caller the gate turns away from the valid request (no token, or not the route's permission) is
      // turned away before any input is read, so its bad inputs would only repeat that answer: they go
      // to the callers the gate lets in (about half the requests, and half the time).
      const admitted = new Set<'Admin' | 'Seller' | null>();
      for (const [index, variant] of variants(op).entries()) {
        for (const who of ['Admin', 'Seller', null] as const) {
          if (index > 0 && !admitted.has(who)) continue;
          const response = await send(op, variant, who);
          if (index === 0 && !refusedByGate(op, who, response)) admitted.add(who);
          requests += 1;
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const where = `${who ?? 'anonymous'} ${op.method} ${op.path} (${variant.label})`;
          if (response.statusCode >= 500)
            failures.push(`${response.statusCode} ${where}: ${response.body.slice(0, 200)}`);
          else if (response.statusCode >= 400 && op.path.startsWith('/api/')) {
            const error = safeJson(response);
            if (typeof error?.message !== 'string' || typeof error?.code !== 'string') {
              failures.push(
                `${response.statusCode} without { message, code }: ${where}: ${response.body.slice(0, 200)}`,
              );
            } else if (error.message.length > 500) {
              failures.push(
                `${response.statusCode} with a ${error.message.length}-character message (echoing input?): ${where}`,
              );
            }
          }
        }
      }
    }
    console.info(
      `fuzz: ${operations.length} operations, ${requests} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
    // Not vacuous: every operation was tried, and the handlers were reached (successes among them).
    expect(operations.length).toBeGreaterThanOrEqual(90);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(requests / 3);
  });
});

function safeJson(response: LightMyRequestResponse): { message?: unknown; code?: unknown } | null {
  try {
    return response.json();
  } catch {
    return null;
  }
}

async function withTimeout<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
