// The API document is valid (two independent validators), names every operation after the SPEC §7 call
// it serves, says which operations need no token, and is usable: a TypeScript client generated from it
// type-checks against the requests and answers of real calls.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INT4_MAX } from '../../contracts/int-param';
import { apiAs, createTestApp, DEMO_PASSWORD_FOR_TESTS, type TestApp } from '../test-support';
import { SPEC_CALLS } from './operation-ids';

interface ParamSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  anyOf?: ParamSchema[];
}
interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema: ParamSchema }[];
}
interface Document {
  servers?: { url: string }[];
  security?: unknown[];
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let document: Document;
let text: string;

beforeAll(async () => {
  t = await createTestApp({ jobs: { enabled: false } });
  const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  text = response.body;
  document = JSON.parse(text);
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(document.paths).flatMap(([url, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), url, operation })),
  );

describe('the OpenAPI document', () => {
  it('has no error in Redocly lint (recommended rules)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: '/api/docs/json', config });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('is valid for swagger-parser, every reference resolving', async () => {
    // validate() dereferences in place: it gets a copy of its own.
    await expect(SwaggerParser.validate(JSON.parse(text))).resolves.toBeTruthy();
  });

  it('names the server and has no path with a trailing slash', () => {
    expect(document.servers?.[0]?.url).toBe(t.config.publicUrl);
    expect(Object.keys(document.paths).filter((url) => url.length > 1 && url.endsWith('/'))).toEqual([]);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(ids.length).toBeGreaterThan(200);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names each SPEC §7 call after itself, on the operation with the SPEC method', () => {
    const byId = new Map(operations().map((entry) => [entry.operation.operationId, entry]));
    const wrong = Object.entries(SPEC_CALLS)
      .filter(([name, method]) => byId.get(name)?.method !== method)
      .map(([name, method]) => `${method} ${name}: ${byId.get(name)?.method ?? 'missing'}`);
    expect(wrong).toEqual([]);
    expect(byId.get('listSellers')?.url).toBe('/api/v1/sellers/listSellers');
    // A second method or path of the same call gets a suffix.
    expect(byId.get('markSellerFreeViaPut')?.url).toBe('/api/v1/sellers/markSellerFree/{id}');
    expect(byId.get('getContactHistoryAtContacts')?.url).toBe('/api/v1/contacts/{id}/history');
  });

  it('marks the operations that need no token with security: [], the rest need the bearer token', () => {
    expect(document.security).toEqual([{ bearer: [] }]);
    const open = new Set(
      operations()
        .filter(({ operation }) => Array.isArray(operation.security) && operation.security.length === 0)
        .map(({ operation }) => operation.operationId),
    );
    for (const id of ['signIn', 'forgotPassword', 'getHealth', 'getChatWidget', 'startWidgetChat'])
      expect(open, id).toContain(id);
    for (const id of ['listSellers', 'getCurrentUser', 'markSellerFree', 'listQueryBotChats'])
      expect(open, id).not.toContain(id);
  });

  it('answers an anonymous call to each operation it marks public without asking for a token', async () => {
    // The mark must match the gate: none of the public operations answers TOKEN_MISSING.
    const refused: string[] = [];
    for (const { method, url, operation } of operations()) {
      if (operation.security?.length !== 0) continue;
      const response = await t.app.inject({
        method: method as 'GET',
        url: url.replace(/\{\w+\}/g, 'x'),
        remoteAddress: '10.9.0.1',
      });
      if (response.statusCode === 401 && response.json().code === 'TOKEN_MISSING')
        refused.push(`${method} ${url}`);
    }
    expect(refused).toEqual([]);
  });
});

/** The integer branch of a parameter's schema, if it has one. */
const integerOf = (schema: ParamSchema): ParamSchema | undefined =>
  schema.type === 'integer' ? schema : schema.anyOf?.find((branch) => branch.type === 'integer');

/** A value the parameter's schema accepts. */
function validValue(schema: ParamSchema): string {
  const integer = integerOf(schema);
  if (integer) return String(Math.max(1, integer.minimum ?? 1));
  if (schema.enum?.length) return String(schema.enum[0]);
  if (schema.anyOf?.[0]) return validValue(schema.anyOf[0]);
  if (schema.format === 'uuid') return '6c1f4a52-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
  return 'abc';
}

describe('numeric path and query parameters', () => {
  it('hold at most what an integer column holds, and a value past it answers 400 naming it', async () => {
    const as = await apiAs(t.app);
    const failures: string[] = [];
    let checked = 0;
    for (const { method, url, operation } of operations()) {
      const parameters = operation.parameters ?? [];
      for (const parameter of parameters) {
        const integer = integerOf(parameter.schema);
        if (!integer || (parameter.in !== 'query' && parameter.in !== 'path')) continue;
        const where = `${method} ${url} ${parameter.in} ${parameter.name}`;
        if ((integer.maximum ?? Number.POSITIVE_INFINITY) > INT4_MAX)
          failures.push(`${where}: maximum ${integer.maximum}`);
        // Every other parameter valid, this one one past the column's range.
        const value = (p: (typeof parameters)[number]) =>
          p === parameter ? String(INT4_MAX + 1) : validValue(p.schema);
        const path = url.replace(/\{(\w+)\}/g, (_, name) =>
          value(parameters.find((p) => p.in === 'path' && p.name === name) ?? parameter),
        );
        const query = parameters
          .filter((p) => p.in === 'query' && (p.required || p === parameter))
          .map((p) => `${p.name}=${encodeURIComponent(value(p))}`)
          .join('&');
        let response = await as('Admin', method as 'GET', `${path}?${query}`);
        if (response.statusCode === 403) response = await as('Seller', method as 'GET', `${path}?${query}`);
        checked += 1;
        const body = response.json() as { message?: string };
        if (response.statusCode !== 400 || !body.message?.includes(parameter.name))
          failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(90);
  });
});

describe('a client generated from the document (openapi-typescript)', () => {
  it('type-checks against three real calls: their requests and their answers', {
    timeout: 60_000,
  }, async () => {
    const as = await apiAs(t.app);
    const signInBody = { email: 'admin@demo.local', password: DEMO_PASSWORD_FOR_TESTS };
    const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: signInBody });
    const sellersQuery = { skip: 0, limit: 5, isActive: 'true' };
    const sellers = await as('Admin', 'GET', '/api/v1/sellers/listSellers?skip=0&limit=5&isActive=true');
    const searchBody = {
      query: { combinator: 'and', children: [{ field: 'title', op: 'contains', value: 'a' }] },
      skip: 0,
      limit: 5,
    };
    const products = await as('Admin', 'POST', '/api/v1/stagingProducts/method/search', searchBody);
    for (const response of [signIn, sellers, products]) expect(response.statusCode, response.body).toBe(200);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-client-'));
    try {
      await writeFile(path.join(dir, 'api.d.ts'), astToString(await openapiTS(text)));
      // Each request and answer is assigned to the generated type of its operation; the last line must
      // fail, or the generated types would accept anything.
      await writeFile(
        path.join(dir, 'calls.ts'),
        `import type { operations } from './api';
type Json<O extends keyof operations, S extends keyof operations[O]['responses']> =
  operations[O]['responses'][S] extends { content: { 'application/json': infer T } } ? T : never;
type Body<O extends keyof operations> =
  NonNullable<operations[O]['requestBody']> extends { content: { 'application/json': infer T } } ? T : never;

export const signInRequest: Body<'signIn'> = ${JSON.stringify(signInBody)};
export const signInAnswer: Json<'signIn', 200> = ${signIn.body};
export const sellersRequest: NonNullable<operations['listSellers']['parameters']['query']> = ${JSON.stringify(sellersQuery)};
export const sellersAnswer: Json<'listSellers', 200> = ${sellers.body};
export const searchRequest: Body<'searchStagingProducts'> = ${JSON.stringify(searchBody)};
export const searchAnswer: Json<'searchStagingProducts', 200> = ${products.body};
// @ts-expect-error: a sellers page has rows, not this
export const notAnAnswer: Json<'listSellers', 200> = { rows: 'none' };
`,
      );
      const program = ts.createProgram([path.join(dir, 'calls.ts')], {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        types: [],
        lib: ['lib.es2022.d.ts'],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, 500));
      expect(diagnostics).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
