/**
 * Names of the document's components, derived from the resource declarations: a patient is `Patient`,
 * its list `PatientList`, its bodies `PatientCreate` and `PatientUpdate`. Generated clients turn these
 * names into top-level types, so none may be a global of JavaScript or the DOM: a model named `File` or
 * `Error` would shadow the `File` a generated client types uploads with, or the `Error` it throws.
 */
import type { Resource } from '../../resources/define';

/**
 * Globals of TypeScript's `es2023` and `dom` libraries a resource could plausibly be named after (the
 * document test checks every component name against the real libraries, so a new collision fails).
 */
const GLOBALS = new Set([
  'Array',
  'Attr',
  'Audio',
  'Blob',
  'Boolean',
  'Cache',
  'Comment',
  'Credential',
  'Date',
  'Document',
  'Element',
  'Error',
  'Event',
  'File',
  'FileList',
  'Function',
  'Headers',
  'History',
  'Image',
  'Location',
  'Lock',
  'Map',
  'Navigator',
  'Node',
  'Notification',
  'Number',
  'Object',
  'Option',
  'Performance',
  'Plugin',
  'Promise',
  'Range',
  'Record',
  'Report',
  'Request',
  'Response',
  'Screen',
  'Selection',
  'Set',
  'Storage',
  'String',
  'Symbol',
  'Text',
  'Touch',
  'URL',
  'Worker',
]);

/** `care plan` → `CarePlan`; `line_items` → `LineItems`. */
export const pascal = (words: string): string =>
  words
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** The suffixes the document derives from a model name (the read model itself has none). */
const SUFFIXES = ['', 'List', 'Create', 'Update', 'Detail'];

/**
 * The model name of a resource: its singular in PascalCase, or `Api` before it when that name or one
 * derived from it is a global (`Error` → `ApiError`, `File` → `ApiFile`, whose list is not `FileList`).
 */
export function modelName(resource: Resource): string {
  const name = pascal(resource.singular);
  return SUFFIXES.some((s) => GLOBALS.has(name + s)) ? `Api${name}` : name;
}

/** The error body's component: `Error` would shadow the global every client throws with. */
export const ERROR_MODEL = 'ApiError';
