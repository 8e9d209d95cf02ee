/**
 * The OpenAPI document as a contract generators and validating clients can rely on: named models from
 * the resource declarations, referenced everywhere; responses open and request bodies closed (the API
 * is additive within a version); open enumerations for codes and event types; parameters in the shape
 * clients send; the server's rules in the schemas; no empty or wrong description.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors';
import { EVENT_TYPES } from '../events/types';
import { PAGE_MAX } from '../list/engine';
import { RESOURCES } from '../resources';
import { hasMetadata, sortableAttributes } from '../resources/describe';
import { METADATA_MAX_KEYS } from '../resources/metadata';
import { buildOpenApiDocument } from '../rest/openapi';
import { modelName, pascal } from '../rest/openapi/names';
import { RouteTable } from '../rest/routes';
import { appRouter } from '../routers';
import { WALL_TIME } from '../values/wall-time';
import { OpenApiDoc, type Doc, type Json } from './support/openapi-doc';

const routes = new RouteTable(appRouter);
const raw = buildOpenApiDocument(routes) as Doc;
const doc = new OpenApiDoc(JSON.parse(JSON.stringify(raw)) as Doc);
const schemas = doc.doc.components.schemas;
const resources = Object.values(RESOURCES);
const listed = resources.filter((r) => routes.routes.some((x) => x.method === 'GET' && x.path === `/${r.name}`));
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
type Prop = Json & { anyOf?: Json[]; maxLength?: number; pattern?: string; maxProperties?: number };
const props = (name: string) => (schemas[name] as { properties: Record<string, Prop> }).properties;

describe('named models', () => {
  it('every resource is a component named after its singular, with its list; errors are ApiError', () => {
    for (const r of resources) expect(modelName(r), r.name).toMatch(new RegExp(`^(Api)?${pascal(r.singular)}$`));
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'Patient',
        'PatientList',
        'PatientCreate',
        'PatientUpdate',
        'Appointment',
        'AppointmentCreate',
        'AppointmentList',
        'Invoice',
        'ApiError',
        'Links',
        'PageMeta',
        'CursorMeta',
      ]),
    );
    for (const r of resources) expect(schemas[modelName(r)], r.name).toBeDefined();
    expect(schemas.Error).toBeUndefined();
    for (const r of listed) {
      const model = modelName(r);
      expect(schemas[`${model}List`], r.name).toEqual(
        expect.objectContaining({
          properties: {
            data: { type: 'array', items: ref(model) },
            links: ref('Links'),
            meta: { anyOf: [ref('PageMeta'), ref('CursorMeta')] },
          },
        }),
      );
    }
  });

  it('operations refer to the models: lists, single reads, writes and their bodies; every error to ApiError', () => {
    for (const r of resources) {
      const model = modelName(r);
      const one = { type: 'object', properties: { data: ref(model) }, required: ['data'] };
      const has = (name: string) => routes.routes.some((x) => `${x.method} ${x.path}` === name);
      if (has(`GET /${r.name}`))
        expect(doc.op(`GET /${r.name}`).responses['200'], r.name).toMatchObject({
          content: { 'application/json': { schema: ref(`${model}List`) } },
        });
      if (has(`GET /${r.name}/{id}`) && r.name !== 'care_plans')
        expect(doc.resolve(doc.op(`GET /${r.name}/{id}`).responses['200']), r.name).toMatchObject({
          content: { 'application/json': { schema: one } },
        });
      if (has(`PATCH /${r.name}/{id}`)) {
        const op = doc.op(`PATCH /${r.name}/{id}`);
        expect(op.requestBody!.content['application/json'].schema).toEqual(ref(`${model}Update`));
        expect(op.responses['200']).toMatchObject({ content: { 'application/json': { schema: one } } });
      }
      if (has(`POST /${r.name}`) && r.name !== 'files')
        expect(doc.op(`POST /${r.name}`).requestBody!.content['application/json'].schema, r.name).toEqual(
          ref(`${model}Create`),
        );
    }
    expect(doc.op('GET /care_plans/{id}').responses['200']).toMatchObject({
      content: { 'application/json': { schema: { properties: { data: ref('CarePlanDetail') } } } },
    });
    expect(doc.op('POST /appointments/{id}/cancel').requestBody!.content['application/json'].schema).toEqual(
      ref('AppointmentCancel'),
    );
    for (const [name, op] of doc.operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(doc.resolve(response), `${name} ${status}`).toMatchObject({
          content: { 'application/json': { schema: ref('ApiError') } },
        });
      }
    }
  });

  it('no model shadows a global of JavaScript or the DOM in generated code', () => {
    const host = ts.createCompilerHost({});
    const file = '/probe.ts';
    const read = host.getSourceFile;
    host.getSourceFile = (name, version) =>
      name === file ? ts.createSourceFile(file, 'export {};', version) : read.call(host, name, version);
    const program = ts.createProgram([file], { lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], noEmit: true }, host);
    const source = program.getSourceFile(file)!;
    const globals = new Set(
      program
        .getTypeChecker()
        .getSymbolsInScope(source, ts.SymbolFlags.Type | ts.SymbolFlags.Value)
        .map((s) => s.name),
    );
    expect(globals.has('File') && globals.has('Location') && globals.has('Error')).toBe(true);
    expect(Object.keys(schemas).filter((n) => globals.has(n))).toEqual([]);
  });
});

describe('an additive contract', () => {
  const responseRoots = doc.operations().flatMap(([, op]) => Object.values(op.responses).map((r) => doc.resolve(r)));
  const bodyRoots = doc
    .operations()
    .flatMap(([, op]) => Object.values(op.requestBody?.content ?? {}).map((c) => c.schema));

  it('response objects are open; request bodies are closed; no component is both', () => {
    const closed = doc.reachable(responseRoots).filter((s) => s.additionalProperties === false);
    expect(closed.length, JSON.stringify(closed[0])).toBe(0);
    const objects = doc.reachable(bodyRoots).filter((s) => s.type === 'object' && s.properties);
    expect(objects.length).toBeGreaterThan(20);
    expect(
      objects.filter((s) => s.additionalProperties !== false).map((s) => Object.keys(s.properties as Json)),
    ).toEqual([]);
    const both = [...doc.componentsReached(responseRoots)].filter((n) => doc.componentsReached(bodyRoots).has(n));
    expect(both).toEqual([]);
  });

  it('a response with an attribute, a code or an event type added later still validates; an unknown input attribute does not', () => {
    const patient = {
      id: 1,
      first_name: 'Ada',
      last_name: 'Lovelace',
      preferred_name: null,
      dob: null,
      email: null,
      sex: null,
      locale: 'en',
      note: null,
      custom_reference: null,
      blocked: false,
      default_location_id: null,
      referral_source_id: null,
      referral_source_type: null,
      communication_preferences: {},
      numbers: [],
      address: null,
      tags: [],
      created_at: '2027-01-01T00:00:00Z',
      updated_at: '2027-01-01T00:00:00Z',
      metadata: {},
    };
    const list = {
      data: [{ ...patient, loyalty_tier: 'gold' }],
      links: { first: null, prev: null, next: null, last: null },
      meta: { current_page: 1, per_page: 25, total: 1, last_page: 1, total_estimated: false, took_ms: 3 },
      extra: true,
    };
    expect(doc.problems(doc.responsePointer('GET /patients', 200)!, list)).toEqual([]);
    expect(
      doc.problems(doc.responsePointer('GET /patients', 200)!, { ...list, data: [{ ...patient, first_name: 7 }] }),
    ).not.toEqual([]);
    const error = {
      message: 'New rule',
      code: 'patient_archived',
      errors: { id: ['archived'] },
      docs: 'https://example.com',
    };
    expect(doc.problems(doc.responsePointer('POST /patients', 422)!, error)).toEqual([]);
    expect(doc.problems(doc.responsePointer('GET /patients/{id}', 404)!, { message: 'gone' })).not.toEqual([]);
    const event = {
      id: 'evt_1',
      type: 'patients.merged',
      occurred_at: '2027-01-01T00:00:00Z',
      data: { entity: 'patients', id: 1, merged_into: 2 },
    };
    expect(doc.problems(`/components/schemas/${modelName(RESOURCES.events)}`, event)).toEqual([]);
    expect(doc.problems('/components/schemas/PatientCreate', { first_name: 'Ada', last_name: 'L' })).toEqual([]);
    expect(
      doc.problems('/components/schemas/PatientCreate', { first_name: 'Ada', last_name: 'L', nickname: 'A' }),
    ).not.toEqual([]);
  });

  it('codes and event types list every value, and say that others may come', () => {
    const code = props('ApiError').code;
    expect(code.anyOf).toEqual([{ type: 'string', enum: Object.keys(ERROR_STATUS) }, { type: 'string' }]);
    const type = props(modelName(RESOURCES.events)).type;
    expect(type.anyOf).toEqual([{ type: 'string', enum: [...EVENT_TYPES] }, { type: 'string' }]);
    for (const s of [code, type]) expect(s.description).toMatch(/may appear within the version/);
  });
});

describe('parameters generators can use', () => {
  it('lists: each declared filter a repeatable form parameter, metadata a deepObject where the resource has metadata', () => {
    for (const r of listed) {
      const params = doc.op(`GET /${r.name}`).parameters!;
      for (const name of Object.keys(r.filters)) {
        expect(
          params.find((p) => p.name === name),
          `${r.name} ${name}`,
        ).toMatchObject({
          in: 'query',
          style: 'form',
          explode: true,
          schema: { type: 'array', items: { type: 'string' } },
        });
      }
      const metadata = params.find((p) => p.name.startsWith('metadata'));
      if (hasMetadata(r))
        expect(metadata, r.name).toMatchObject({
          name: 'metadata',
          in: 'query',
          style: 'deepObject',
          explode: true,
          schema: { type: 'object', additionalProperties: { type: 'string' } },
        });
      else expect(metadata, r.name).toBeUndefined();
    }
    expect(['events', 'deleted_entities'].filter((n) => hasMetadata(RESOURCES[n]))).toEqual([]);
  });

  it('sort takes the sortable attributes of the declaration, each with an optional direction, comma-separated', () => {
    for (const r of listed) {
      const sort = doc.op(`GET /${r.name}`).parameters!.find((p) => p.name === 'sort')!;
      const pattern = new RegExp(sort.schema.pattern as string);
      const sortable = sortableAttributes(r);
      for (const s of sortable)
        expect(
          `${s} ${s}:asc ${s}:desc,${sortable[0]}`.split(' ').every((v) => pattern.test(v)),
          `${r.name} ${s}`,
        ).toBe(true);
      const unsortable = Object.keys(r.fields).find((k) => !sortable.includes(k));
      if (unsortable) expect(pattern.test(unsortable), `${r.name} ${unsortable}`).toBe(false);
      expect(pattern.test('id:up')).toBe(false);
      expect(sort.description).toContain(sortable.join(', '));
    }
  });

  it('page states its clamp, not a maximum; a flag the server reads as true/false is a boolean', () => {
    const page = doc.op('GET /patients').parameters!.find((p) => p.name === 'page')!;
    expect(page.schema).toEqual({ type: 'integer', minimum: 1, default: 1 });
    expect(page.description).toContain(`clamped to ${PAGE_MAX}`);
    expect(doc.op('DELETE /invoices/{id}').parameters!.find((p) => p.name === 'void_payments')!.schema).toEqual({
      type: 'boolean',
    });
  });

  it('a body is required exactly when it has a required attribute: cancel takes none', () => {
    expect(doc.op('POST /appointments/{id}/cancel').requestBody!.required).toBe(false);
    expect(doc.op('PATCH /patients/{id}').requestBody!.required).toBe(false);
    expect(doc.op('POST /patients').requestBody!.required).toBe(true);
  });
});

describe('rules the server enforces are in the schemas', () => {
  it('wall times carry their shape, metadata its key bound, strings their declared maxima', () => {
    for (const k of ['starts_at', 'ends_at']) expect(props('AppointmentCreate')[k].pattern, k).toBe(WALL_TIME.source);
    expect(props('Appointment').starts_at.pattern).toBe(WALL_TIME.source);
    expect(props('PatientCreate').metadata.maxProperties).toBe(METADATA_MAX_KEYS);
    const maxOf = (p: Prop): number | undefined =>
      p.maxLength ?? p.anyOf?.map((a) => (a as Prop).maxLength).find(Boolean);
    let checked = 0;
    for (const r of resources) {
      for (const [k, f] of Object.entries(r.fields)) {
        if (!f.maxLength || !f.write) continue;
        for (const body of ['Create', 'Update']) {
          const name = `${modelName(r)}${body}`;
          if (!schemas[name] || !props(name)[k]) continue;
          expect(maxOf(props(name)[k]), `${name}.${k}`).toBe(f.maxLength);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('descriptions and metadata', () => {
  it('every operation is described, never with a generic line', () => {
    for (const [name, op] of doc.operations()) {
      expect(op.description, name).toBeTruthy();
      expect(op.description, name).not.toMatch(/^List of |One record by id/);
    }
    expect(doc.op('GET /ping').description).toMatch(/pong/);
    expect(doc.op('GET /schema/{resource}').description).toMatch(/resource/);
  });

  it('public operations say so (security: []), every other needs the bearer key', () => {
    expect(doc.doc.security).toEqual([{ bearer: [] }]);
    const open = doc
      .operations()
      .filter(([, op]) => Array.isArray(op.security) && op.security.length === 0)
      .map(([n]) => n);
    expect(open.sort()).toEqual(['GET /changelog', 'GET /openapi.json', 'GET /ping']);
  });

  it('states no bound an integer already has (renderers took -2^53+1 for the example)', () => {
    expect(JSON.stringify(doc.doc)).not.toMatch(/"(minimum|maximum)":-?9007199254740991\b/);
    expect(JSON.stringify(doc.doc)).toMatch(/"maximum":100\b/); // page_size keeps its real bound
  });

  it('carries the Beta label: in the title, as x-beta and in the description', () => {
    const info = doc.doc.info as Json & { title: string; description: string };
    expect([info.title, info['x-beta'], info.description.startsWith('**Beta**')]).toEqual([
      'Clinic API (Beta)',
      true,
      true,
    ]);
  });

  it('a licence, server variables without description, the download as bytes', () => {
    expect((doc.doc.info as Json).license).toMatchObject({ name: expect.any(String) });
    const variables = (doc.doc.servers as { variables: Record<string, Json> }[])[0].variables;
    for (const v of Object.values(variables)) expect(v.description).toBeUndefined();
    expect(
      Object.keys(doc.resolve<{ content: Json }>(doc.op('GET /files/{id}/download').responses['200']).content),
    ).toEqual(['application/octet-stream']);
  });

  it('validates as OpenAPI 3.1 (the official schema, and swagger-parser 13)', async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(raw)));
    expect(result.errors ?? []).toEqual([]);
    await expect(SwaggerParser.validate(JSON.parse(JSON.stringify(raw)))).resolves.toBeTruthy();
  });
});
