/** The prose of the document: operation descriptions with their rules, tags, request examples. */
import { AVAILABILITY_DESCRIPTION, AVAILABILITY_RULES } from '../../resources/availability';
import { RESOURCES } from '../../resources';
import { everydaySentence } from '../../resources/describe';
import type { Json, Operation } from './operation';

const bullets = (rules: readonly string[]) =>
  rules.length ? `\n\nRules:\n${rules.map((r) => `- ${r}`).join('\n')}` : '';

/** The rules an operation is bound by, as declared: a write's rules, the availability search's. */
function rulesOf({ resource, kind, route }: Operation): readonly string[] {
  if (route.path === '/availability') return AVAILABILITY_RULES;
  if (resource && (kind === 'create' || kind === 'update' || kind === 'delete')) return resource.rules?.[kind] ?? [];
  return [];
}

/** What a resource operation without a description of its own does. */
function generated({ resource, kind }: Operation): string | undefined {
  if (!resource) return undefined;
  const what = resource.singular;
  switch (kind) {
    case 'list':
      return resource.description + everydaySentence(resource);
    case 'get':
      return `One ${what} by id (404 not_found when it is not on this account).`;
    case 'create':
      return `Creates a ${what}. Send an Idempotency-Key to retry safely. Input rules: GET /schema/${resource.name}.`;
    case 'update':
      return `Changes the attributes sent (merge style; metadata keys merge, null removes one). Input rules: GET /schema/${resource.name}.`;
    case 'delete':
      return `Deletes the ${what}${resource.deleteSemantics ? ` (${resource.deleteSemantics})` : ''}; it then appears in GET /deleted_entities.`;
    default:
      return undefined;
  }
}

/**
 * The description of an operation: its route's own, or the one its kind implies, then its rules. A
 * route that is neither a resource operation nor described is a mistake, refused here.
 */
export function operationDescription(op: Operation, own: string | undefined): string {
  const text = own ?? generated(op);
  if (!text)
    throw new Error(`${op.route.method} ${op.route.path}: describe the route in its meta (openapi.description)`);
  return text + bullets(rulesOf(op));
}

/**
 * The text stating the domain rules of an operation that applies them (undefined for one that does
 * not): a write's description, rules and its resource's description (whose rules bind each of its
 * writes); the availability search's rules.
 */
export function ruleText(op: Operation, description: string): string | undefined {
  if (op.route.path === '/availability') return description;
  return op.route.type === 'mutation' ? `${description}\n${op.resource?.description ?? ''}` : undefined;
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  utility:
    'Liveness, the calling key and its account, schema discovery (GET /schema/{resource} describes every resource as data), and this document.',
  availability: AVAILABILITY_DESCRIPTION,
};

/** Every tag the operations use, with its resource's description. */
export function tagsOf(paths: Record<string, Record<string, Json>>): Json[] {
  const used = new Set(
    Object.values(paths).flatMap((ops) => Object.values(ops).map((op) => (op.tags as string[] | undefined)?.[0] ?? '')),
  );
  used.delete('');
  return [...used].sort().map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? (Object.hasOwn(RESOURCES, name) ? RESOURCES[name].description : name),
  }));
}

/** Request examples for the main writes (the README's curl lines), shown by documentation tools. */
export const EXAMPLES: Record<string, Json> = {
  'POST /patients': {
    first_name: 'Ada',
    last_name: 'Lovelace',
    dob: '1985-12-10',
    email: 'ada@example.com',
    numbers: [{ number: '07700 900123', type: 'mobile' }],
    address: { line_1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
    metadata: { crm_id: 'A-1001' },
  },
  'PATCH /patients/{id}': { preferred_name: 'Ada', metadata: { crm_id: null } },
  'POST /appointments': {
    patient_id: 1,
    practitioner_id: 1,
    location_id: 1,
    appointment_type_id: 2,
    starts_at: '2027-01-11T09:00:00',
    notes: 'Left knee',
  },
  'POST /invoices': { patient_id: 1, line_items: [{ billable_item_id: 1, quantity: 1 }] },
  'POST /payments': {
    patient_id: 1,
    payment_method_id: 2,
    amount: '75.00',
    allocations: [{ invoice_id: 1, amount: '75.00' }],
  },
};
