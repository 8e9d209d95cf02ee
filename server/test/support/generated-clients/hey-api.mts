/** The program (program.ts) with the client @hey-api/openapi-ts generates (its fetch client, SDK functions and types). */
import {
  appointmentsCreate,
  appointmentsList,
  availabilitySearch,
  patientsCreate,
  patientsList,
  type ApiError,
  type Slot,
} from './generated/hey-api';
import { createClient, createConfig } from './generated/hey-api/client';
import type { ProgramInput, ProgramOutcome } from './program';

/** A code newer than this client still is an `ApiError['code']`: the enumeration is open. */
export const codeAddedLater: ApiError['code'] = 'code_added_later';

export async function program(input: ProgramInput): Promise<ProgramOutcome> {
  // `auth` answers the document's bearer scheme: the client sends it as Authorization: Bearer.
  const client = createClient(createConfig({ baseUrl: input.baseUrl, fetch: input.fetch, auth: input.apiKey }));

  const created = await patientsCreate({
    client,
    body: { first_name: 'Vip', last_name: input.lastName, metadata: { vip: true } },
  });
  if (created.error) throw new Error(`create: ${created.error.code}`);
  const patient = created.data.data;

  const pages: number[][] = [];
  for (let page = 1; ; page++) {
    const query = {
      last_name: [`eq:${input.lastName}`],
      metadata: { vip: 'eq:true' },
      sort: 'id',
      page,
      page_size: input.pageSize,
    };
    const { data, error } = await patientsList({ client, query });
    if (error) throw new Error(`list: ${error.code}`);
    pages.push(data.data.map((p) => p.id));
    if (!data.links.next) break;
  }

  const first = await appointmentsList({ client, query: { page_size: 1, sort: 'id' } });
  if (first.error) throw new Error(`appointments: ${first.error.code}`);
  const [like] = first.data.data;
  if (!like) throw new Error('no appointment to copy');
  const free = await availabilitySearch({
    client,
    query: {
      location_id: like.location_id,
      appointment_type_id: like.appointment_type_id,
      practitioner_id: like.practitioner_id,
      limit: 1,
    },
  });
  if (free.error) throw new Error(`availability: ${free.error.code}`);
  const [slot]: Slot[] = free.data.data;
  if (!slot) throw new Error('no free slot');
  const { practitioner_id, location_id, appointment_type_id, resource_id, starts_at } = slot;
  const booking = await appointmentsCreate({
    client,
    body: { patient_id: patient.id, practitioner_id, location_id, appointment_type_id, resource_id, starts_at },
  });
  if (booking.error) throw new Error(`book: ${booking.error.code}`);
  const appointment = booking.data.data;

  const bad = await patientsCreate({
    client,
    body: { first_name: 'Ada', last_name: input.lastName, email: 'not an email' },
  });
  // The 422 branch, typed by the document: the code (a known one or a newer one) and the attributes named.
  const refused =
    bad.error && bad.response.status === 422
      ? { status: 422, code: bad.error.code, fields: Object.keys(bad.error.errors ?? {}) }
      : { status: bad.response.status, code: 'none', fields: [] };

  return {
    pages,
    created: patient.id,
    slot: { starts_at, practitioner_id, location_id, appointment_type_id },
    booked: {
      status: booking.response.status,
      id: appointment.id,
      patient_id: appointment.patient_id,
      starts_at: appointment.starts_at,
    },
    refused,
  };
}
