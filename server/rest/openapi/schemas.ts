/**
 * The named schemas of the document. Responses are rendered from the routes' own output schemas with
 * the resource declarations registered as components, so every place a patient appears is a `$ref` to
 * `Patient`; request bodies are the generator's rendering of each route's input, named after it.
 *
 * The contract is additive within a version (new attributes, codes and event types may appear), so
 * response objects are open and the open enumerations accept values beyond those documented. Request
 * bodies stay closed: an unknown attribute is a 422.
 */
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { ERROR_STATUS } from '../../errors';
import { RESOURCES } from '../../resources';
import { slotSchema } from '../../resources/availability';
import { deprecationText } from '../../resources/deprecation';
import { events } from '../../resources/events';
import { linksSchema, metaSchema } from '../../resources/queries';
import type { Route } from '../routes';
import { ERROR_MODEL, modelName, pascal } from './names';
import type { Json, Operation } from './operation';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * An enumeration clients must not close: the documented values, or any other string. `anyOf` with a
 * plain string, not `x-extensible-enum`: openapi-typescript turns the extension into a bare `string`
 * and drops the values, while this gives `("a" | "b") | string`: the values stay in the generated
 * declaration and in validation, and a comparison with a value added later still compiles.
 */
export function openEnum(values: readonly string[], description: string): Json {
  return { description, anyOf: [{ type: 'string', enum: [...values] }, { type: 'string' }] };
}

/** The body of every error response. */
export const apiErrorSchema = (): Json => ({
  type: 'object',
  description: 'Every error answers with this body.',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string', description: 'Human-readable; may change; do not parse' },
    code: openEnum(
      Object.keys(ERROR_STATUS),
      'Stable snake_case machine code. More codes may appear within the version: handle one you do not know by the HTTP status.',
    ),
    errors: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
      description: 'Attribute name → problems; present on input problems',
    },
  },
});

/** Deletes every `additionalProperties: false` below a response schema (records keep their value schema). */
function open(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(open);
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as Json;
  if (s.additionalProperties === false) delete s.additionalProperties;
  Object.values(s).forEach(open);
}

/** The output schemas the document names: each resource, its list, the shared paging parts. */
function namedOutputs(operations: Operation[]): Record<string, z.ZodType> {
  const [page, cursor] = metaSchema.options;
  const named: Record<string, z.ZodType> = { Links: linksSchema, PageMeta: page, CursorMeta: cursor, Slot: slotSchema };
  for (const r of Object.values(RESOURCES)) named[modelName(r)] = r.readSchema;
  for (const { route, resource, kind } of operations) {
    if (!resource || !route.output) continue;
    if (kind === 'list') named[`${modelName(resource)}List`] = route.output;
    // A single read richer than a list row (care plans) is the resource's Detail.
    const data = kind === 'get' ? (route.output as z.ZodObject).shape.data : undefined;
    if (data && data !== resource.readSchema) named[`${modelName(resource)}Detail`] = data as z.ZodType;
  }
  return named;
}

/**
 * Every JSON response body of the routes, rendered at once so shared schemas become components: the
 * components, and each route's body schema (mostly a `$ref`, or `{ data: $ref }`).
 */
export function responseSchemas(operations: Operation[]): {
  components: Record<string, Json>;
  byRoute: Map<Route, Json>;
} {
  const answered = operations.map((o) => o.route).filter((r) => r.output && r.status !== 204 && !r.binary);
  const bag = z.object(Object.fromEntries(answered.map((r, i) => [String(i), r.output!])));
  const rendered = createSchema(bag, {
    io: 'output',
    schemaComponents: namedOutputs(operations),
    openapiVersion: '3.1.0',
  });
  const bodies = (rendered.schema as { properties: Record<string, Json> }).properties;
  const components = rendered.components as Record<string, Json>;
  open(components);
  open(bodies);
  // The spec names event types among what may appear within a version.
  const event = components[modelName(events)] as { properties: Record<string, Json> };
  const said = event.properties.type.description ?? 'Event type';
  event.properties.type = openEnum(
    events.fields.type.values!,
    `${said}. More types may appear within the version: ignore one you do not handle.`,
  );
  components[ERROR_MODEL] = apiErrorSchema();
  return { components, byRoute: new Map(answered.map((r, i) => [r, bodies[String(i)]])) };
}

/**
 * Marks each deprecated attribute where a model has it (the record, its Detail, its create and update
 * bodies): `deprecated: true` and the deprecation's sentence before its own description. Done on the
 * rendered document, from the declarations as they stand when it is built.
 */
export function deprecatedProperties(schemas: Record<string, Json>): void {
  for (const r of Object.values(RESOURCES)) {
    const model = modelName(r);
    for (const [k, f] of Object.entries(r.fields)) {
      if (!f.deprecated) continue;
      for (const name of [model, `${model}Detail`, `${model}Create`, `${model}Update`]) {
        const property = (schemas[name]?.properties as Record<string, Json> | undefined)?.[k];
        if (!property) continue;
        property.deprecated = true;
        property.description = [deprecationText(f.deprecated), property.description].filter(Boolean).join(' ');
      }
    }
  }
}

/** The component name of an operation's request body: `PatientCreate`, `PatientUpdate`, `AppointmentCancel`. */
export function bodyName({ resource, kind, action }: Operation): string | undefined {
  if (!resource) return undefined;
  const model = modelName(resource);
  if (kind === 'create') return `${model}Create`;
  if (kind === 'update') return `${model}Update`;
  if (kind === 'action') return `${model}${pascal(action!)}`;
  return undefined;
}
