/**
 * Deprecations, declared in the declarations, reach every place a client looks: the document
 * (`deprecated: true` on the property, the parameter, the operation), /schema, the changelog's list,
 * and the Deprecation / Sunset / Link headers of the answers to requests that used them (and of no
 * others).
 *
 * Nothing of the API is deprecated today (within v3 nothing is removed, and the spec names nothing
 * to retire), so this file declares three things deprecated for itself, before its server starts: an
 * attribute (with its filter and sort), a filter-only parameter and a route. Vitest runs each test
 * file in its own module graph, so these declarations stay in this file.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { events } from '../resources/events';
import { patients } from '../resources/patients';
import { checked, deprecationHeaders, type Deprecation } from '../resources/deprecation';
import { appRouter } from '../routers';
import type { RouteMeta } from '../trpc';
import { request, useClinic, type Res } from './helpers';
import { OpenApiDoc, type Doc, type Json, type Operation } from './support/openapi-doc';

const ATTRIBUTE: Deprecation = {
  since: '2026-11-26',
  sunset: '2027-06-01',
  use: 'metadata',
  note: 'Test-only: a custom reference belongs in metadata.',
};
const FILTER: Deprecation = {
  since: '2026-10-01',
  use: 'entity_id',
  note: 'Test-only: the dotted name is hard to send.',
};
const ROUTE: Deprecation = { since: '2026-11-01', sunset: '2027-01-31', use: 'GET /schema', note: 'Test-only.' };

patients.fields.custom_reference.deprecated = ATTRIBUTE;
events.filterOnly!['data.id'].deprecated = FILTER;
(appRouter._def.procedures as unknown as Record<string, { _def: { meta: RouteMeta } }>)[
  'meta.me'
]._def.meta.deprecated = ROUTE;

const t = useClinic({ seed: true });
const at = (day: string) => `@${Date.parse(`${day}T00:00:00Z`) / 1000}`;
const announced = (res: Res) => ({
  deprecation: res.headers.deprecation,
  sunset: res.headers.sunset,
  link: res.headers.link,
});
const none = { deprecation: undefined, sunset: undefined, link: undefined };
const link = () => `<http://${t.clinic.host}/v3/api/changelog>; rel="deprecation"; type="application/json"`;

describe('answers to requests that used something deprecated', () => {
  it('a deprecated route: Deprecation as @seconds, Sunset as an HTTP-date, Link to the changelog', async () => {
    const res = await t.api.get('/me');
    expect(res.status).toBe(200);
    expect(announced(res)).toEqual({
      deprecation: at('2026-11-01'),
      sunset: 'Sun, 31 Jan 2027 00:00:00 GMT',
      link: link(),
    });
    expect(announced(await t.api.get('/schema'))).toEqual(none);
  });

  it('a deprecated attribute: filtering or sorting by it, or sending it, is a use; reading a record that has it is not', async () => {
    const expected = { deprecation: at('2026-11-26'), sunset: 'Tue, 01 Jun 2027 00:00:00 GMT', link: link() };
    expect(announced(await t.api.get('/patients?custom_reference=not:null'))).toEqual(expected);
    expect(announced(await t.api.get('/patients?sort=last_name,custom_reference:desc'))).toEqual(expected);
    expect(announced(await t.api.get('/patients?last_name=ne:Nobody&sort=last_name'))).toEqual(none);
    const made = await t.api.post('/patients', {
      body: { first_name: 'Old', last_name: 'Ways', custom_reference: 'R-1' },
    });
    expect(made.status).toBe(201);
    expect(announced(made)).toEqual(expected);
    expect(
      announced(await t.api.patch(`/patients/${made.body.data.id}`, { body: { custom_reference: 'R-2' } })),
    ).toEqual(expected);
    expect(
      announced(await t.api.patch(`/patients/${made.body.data.id}`, { body: { preferred_name: 'Olly' } })),
    ).toEqual(none);
    expect(announced(await t.api.post('/patients', { body: { first_name: 'New', last_name: 'Ways' } }))).toEqual(none);
    const read = await t.api.get(`/patients/${made.body.data.id}`);
    expect([read.body.data.custom_reference, announced(read)]).toEqual(['R-2', none]);
  });

  it('a refused request that used it is told too', async () => {
    const res = await t.api.post('/patients', { body: { first_name: 'No last name', custom_reference: 'R-3' } });
    expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    expect(announced(res).deprecation).toBe(at('2026-11-26'));
  });

  it('a deprecated filter-only parameter, without a sunset: no Sunset header; its undeprecated alias is no use', async () => {
    expect(announced(await t.api.get('/events?data.id=gt:0'))).toEqual({
      deprecation: at('2026-10-01'),
      sunset: undefined,
      link: link(),
    });
    expect(announced(await t.api.get('/events?entity=patients'))).toEqual(none);
  });

  it('several at once: the earliest deprecation, the nearest sunset', () => {
    const headers = deprecationHeaders([ATTRIBUTE, FILTER, ROUTE], 'https://x/v3/api/changelog');
    expect(headers).toEqual({
      Deprecation: at('2026-10-01'),
      Sunset: 'Sun, 31 Jan 2027 00:00:00 GMT',
      Link: '<https://x/v3/api/changelog>; rel="deprecation"; type="application/json"',
    });
    expect(deprecationHeaders([], 'https://x')).toEqual({});
  });

  it('a declaration with a day that is not a day, or a sunset before it, is refused', () => {
    expect(() => checked({ kind: 'route', name: 'GET /x', since: '2026-02-30', note: '' })).toThrow(
      /not a YYYY-MM-DD day/,
    );
    expect(() =>
      checked({ kind: 'route', name: 'GET /x', since: '2026-11-26', sunset: '2026-11-25', note: '' }),
    ).toThrow(/sunset is before since/);
  });
});

describe('where a client reads about them', () => {
  it('the document: deprecated operation, parameters and properties, with the sentence; the headers documented', async () => {
    const raw = (await request(t.server, 'GET', '/openapi.json')).body as Doc;
    const doc = new OpenApiDoc(raw);
    const op = (name: string) => doc.op(name) as Operation & { deprecated?: boolean };
    const me = op('GET /me');
    expect(me.deprecated).toBe(true);
    expect(me.description).toMatch(
      /^Deprecated since 2026-11-01; use GET \/schema instead; may stop working after 2027-01-31\. Test-only\./,
    );
    expect(op('GET /schema').deprecated).toBeUndefined();
    const param = (op: string, name: string) => doc.op(op).parameters!.find((p) => p.name === name)!;
    expect(param('GET /patients', 'custom_reference')).toMatchObject({
      deprecated: true,
      description: expect.stringMatching(/^Deprecated since 2026-11-26; use metadata instead/),
    });
    expect(param('GET /patients', 'last_name').deprecated).toBeUndefined();
    expect(param('GET /patients', 'sort').description).toMatch(
      /Deprecated: custom_reference \(Deprecated since 2026-11-26/,
    );
    expect(param('GET /events', 'data.id').deprecated).toBe(true);
    expect(param('GET /events', 'entity').deprecated).toBeUndefined();
    for (const model of ['Patient', 'PatientCreate', 'PatientUpdate']) {
      const props = (doc.doc.components.schemas[model] as { properties: Record<string, Json> }).properties;
      expect(props.custom_reference, model).toMatchObject({
        deprecated: true,
        description: expect.stringMatching(/^Deprecated since 2026-11-26/),
      });
      expect(props.last_name.deprecated, model).toBeUndefined();
    }
    const success = (name: string) =>
      Object.entries(doc.op(name).responses).find(([status]) => status.startsWith('2'))![1] as Json;
    const headers = (name: string) => Object.keys((doc.resolve(success(name)) as { headers: Json }).headers);
    for (const name of ['GET /me', 'GET /patients', 'POST /patients', 'GET /events'])
      expect(headers(name), name).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
    for (const name of ['GET /schema', 'GET /appointments', 'GET /patients/{id}'])
      expect(headers(name), name).not.toContain('Deprecation');
    expect((await new Validator().validate(raw)).errors ?? []).toEqual([]);
  });

  it('/schema/{resource}: the attribute and the filter-only parameter carry their deprecation', async () => {
    const schema = (await t.api.get('/schema/patients')).body.data;
    expect(schema.attributes.custom_reference.deprecated).toEqual(ATTRIBUTE);
    expect(schema.attributes.last_name.deprecated).toBeUndefined();
    expect((await t.api.get('/schema/events')).body.data.filtering.filter_only['data.id'].deprecated).toEqual(FILTER);
  });

  it('the changelog lists them from the declarations', async () => {
    const res = await request(t.server, 'GET', '/changelog', { host: t.clinic.host });
    expect(res.body.deprecations).toEqual([
      { kind: 'filter', name: 'events.data.id', ...FILTER },
      { kind: 'attribute', name: 'patients.custom_reference', ...ATTRIBUTE },
      { kind: 'route', name: 'GET /me', ...ROUTE },
    ]);
  });
});
