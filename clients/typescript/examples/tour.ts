/**
 * The client as an integrator uses it: every list record through the cursor iterator, a create that a
 * retry cannot double, a booking from a free slot, a refusal read by its code, a webhook verified.
 * server/test/client.typescript.test.ts runs these against a real server, and compiles this file under
 * `tsc --strict` with no casts.
 */
import {
  ClinicApiError,
  isEventType,
  paginate,
  verifyWebhook,
  type ClinicClient,
  type Schema,
  type WebhookEvent,
} from '../src';

type Patient = Schema<'Patient'>;
type Slot = Schema<'Slot'>;
type Appointment = Schema<'Appointment'>;

/** Every patient with this last name, oldest first, `pageSize` to a request. */
export async function patientsNamed(client: ClinicClient, lastName: string, pageSize: number): Promise<Patient[]> {
  const found: Patient[] = [];
  for await (const patient of paginate(client, '/patients', {
    query: { last_name: [`eq:${lastName}`], page_size: pageSize, sort: 'id' },
  })) {
    found.push(patient);
  }
  return found;
}

/** A new patient. The client sends an Idempotency-Key of its own unless given one (to retry across restarts, keep yours). */
export async function createPatient(
  client: ClinicClient,
  body: Schema<'PatientCreate'>,
  idempotencyKey?: string,
): Promise<{ patient: Patient; replayed: boolean }> {
  const { data, error, response } = await client.POST('/patients', {
    body,
    headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
  });
  if (error) throw new ClinicApiError(response, error);
  return { patient: data.data, replayed: response.headers.get('Idempotent-Replayed') === 'true' };
}

/** The first free slot with the practitioner, location and type of the clinic's first appointment. */
export async function firstFreeSlot(client: ClinicClient): Promise<Slot> {
  const first = await client.GET('/appointments', { params: { query: { page_size: 1, sort: 'id' } } });
  if (first.error) throw new ClinicApiError(first.response, first.error);
  const [like] = first.data.data;
  if (!like) throw new Error('the clinic has no appointment to copy');
  const query = {
    location_id: like.location_id,
    appointment_type_id: like.appointment_type_id,
    practitioner_id: like.practitioner_id,
    limit: 1,
  };
  const { data, error, response } = await client.GET('/availability', { params: { query } });
  if (error) throw new ClinicApiError(response, error);
  const [slot] = data.data;
  if (!slot) throw new Error('no free slot');
  return slot;
}

export type Booking = { booked: Appointment } | { refused: { status: number; code: string } };

/** Books `slot` for a patient; a slot taken meanwhile is a 409 `slot_unavailable`, read as a value. */
export async function book(client: ClinicClient, patientId: number, slot: Slot): Promise<Booking> {
  const { practitioner_id, location_id, appointment_type_id, resource_id, starts_at } = slot;
  const { data, error, response } = await client.POST('/appointments', {
    body: { patient_id: patientId, practitioner_id, location_id, appointment_type_id, resource_id, starts_at },
  });
  if (error) return { refused: { status: response.status, code: error.code } };
  return { booked: data.data };
}

/** A create the server refuses: the status, the code and the attributes it names, read typed. */
export async function createWithBadEmail(
  client: ClinicClient,
  lastName: string,
): Promise<{ status: number; code: string; fields: string[]; message: string }> {
  const { data, error, response } = await client.POST('/patients', {
    body: { first_name: 'Ada', last_name: lastName, email: 'not an email' },
  });
  if (data) return { status: response.status, code: 'created', fields: [], message: '' };
  // A code this client does not know yet compiles and lands here too: the enumeration is open.
  const fields = response.status === 422 && error.code === 'validation_failed' ? Object.keys(error.errors ?? {}) : [];
  return { status: response.status, code: error.code, fields, message: error.message };
}

/** What a receiver does with a delivery: verify it, then act on its type (a type it does not know: ignored). */
export function receive(
  secret: string,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): { event: WebhookEvent; patientCreated: number | null } {
  const event = verifyWebhook(secret, body, headers);
  if (!isEventType(event, 'patients.created')) return { event, patientCreated: null };
  // Narrowed to PatientCreatedEvent: its entity is the literal 'patients'.
  const entity: 'patients' = event.data.entity;
  return { event, patientCreated: entity === 'patients' ? event.data.id : null };
}
