/**
 * The OpenAPI document as data for tests: its operations, the schema of a response or body (following
 * `$ref`s), and a JSON Schema validator (Ajv, draft 2020-12, the dialect of OpenAPI 3.1) that checks a
 * value against any schema of the document, references and all.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

export type Json = Record<string, unknown>;
export type Doc = Json & {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};
export interface Operation {
  operationId: string;
  description?: string;
  security?: unknown[];
  parameters?: (Json & { name: string; in: string; schema: Json })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
}

const ID = 'https://clinic.example/openapi.json';
const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export class OpenApiDoc {
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: Doc) {
    this.ajv.addSchema({ ...doc, $id: ID });
  }

  /** Every operation, as `METHOD /path`. */
  operations(): [string, Operation][] {
    return Object.entries(this.doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
    );
  }

  op(name: string): Operation {
    const [method, path] = name.split(' ');
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`no operation ${name} in the document`);
    return op;
  }

  /** A schema or response object with its `$ref` followed (once is all the document nests). */
  resolve<T = Json>(value: Json): T {
    const ref = value.$ref as string | undefined;
    if (!ref) return value as T;
    return ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc) as T;
  }

  /** The JSON pointer of the schema of an operation's response with this status (its shared response followed). */
  responsePointer(name: string, status: number | string): string | undefined {
    const [method, path] = name.split(' ');
    const response = this.op(name).responses[String(status)] as Json | undefined;
    if (!response) return undefined;
    const base = response.$ref
      ? (response.$ref as string).slice(1)
      : `/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}`;
    const content = (this.resolve(response).content ?? {}) as Record<string, unknown>;
    const type = Object.keys(content)[0];
    return type ? `${base}/content/${escape(type)}/schema` : undefined;
  }

  /** The problems of a value against the schema at a pointer (`/components/schemas/Patient`): none when it validates. */
  problems(pointer: string, value: unknown): string[] {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${ID}#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** Every schema reachable from a start, `$ref`s followed, each visited once. */
  reachable(start: unknown, seen = new Set<unknown>()): Json[] {
    if (typeof start !== 'object' || start === null || seen.has(start)) return [];
    seen.add(start);
    const node = start as Json;
    const here = Array.isArray(node) ? [] : [node];
    const next = typeof node.$ref === 'string' ? [this.resolve(node)] : Object.values(node);
    return [...here, ...next.flatMap((n) => this.reachable(n, seen))];
  }

  /** The schema components a start refers to, directly or through other components. */
  componentsReached(start: unknown): Set<string> {
    const refs = this.reachable(start).map((s) => s.$ref);
    return new Set(
      refs
        .filter((r): r is string => typeof r === 'string' && r.startsWith('#/components/schemas/'))
        .map((r) => r.split('/').at(-1)!),
    );
  }
}
