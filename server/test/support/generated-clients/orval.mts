/**
 * The program (program.ts) with orval's fetch client. Its functions call `/patients…` on the page's
 * origin with the global fetch; generated with `useRuntimeFetcher`, each takes a fetch of the caller's,
 * here one that prefixes the API's base URL.
 */
import {
  appointmentsCreate,
  appointmentsList,
  availabilitySearch,
  patientsCreate,
  patientsList,
  type ApiError,
} from './generated/orval/clinic';
import type { ProgramInput, ProgramOutcome } from './program';

/** A code newer than this client still is an `ApiError['code']`: the enumeration is open. */
export const codeAddedLater: ApiError['code'] = 'code_added_later';

export async function program(input: ProgramInput): Promise<ProgramOutcome> {
  const send: typeof fetch = (path, init) => input.fetch(`${input.baseUrl}${path}`, init);
  const options = { headers: { Authorization: `Bearer ${input.apiKey}` } };

  const created = await patientsCreate(
    { first_name: 'Vip', last_name: input.lastName, metadata: { vip: true } },
    options,
    send,
  );
  if (created.status !== 201) throw new Error(`create: ${created.data.code}`);
  const patient = created.data.data;

  const pages: number[][] = [];
  for (let page = 1; ; page++) {
    const list = await patientsList(
      {
        last_name: [`eq:${input.lastName}`],
        metadata: { vip: 'eq:true' },
        sort: 'id',
        page,
        page_size: input.pageSize,
      },
      options,
      send,
    );
    if (list.status !== 200) throw new Error(`list: ${list.data.code}`);
    pages.push(list.data.data.map((p) => p.id));
    if (!list.data.links.next) break;
  }

  const first = await appointmentsList({ page_size: 1, sort: 'id' }, options, send);
  if (first.status !== 200) throw new Error(`appointments: ${first.data.code}`);
  const [like] = first.data.data;
  if (!like) throw new Error('no appointment to copy');
  const free = await availabilitySearch(
    {
      location_id: like.location_id,
      appointment_type_id: like.appointment_type_id,
      practitioner_id: like.practitioner_id,
      limit: 1,
    },
    options,
    send,
  );
  if (free.status !== 200) throw new Error(`availability: ${free.data.code}`);
  const [slot] = free.data.data;
  if (!slot) throw new Error('no free slot');
  const { practitioner_id, location_id, appointment_type_id, resource_id, starts_at } = slot;
  const booking = await appointmentsCreate(
    { patient_id: patient.id, practitioner_id, location_id, appointment_type_id, resource_id, starts_at },
    options,
    send,
  );
  if (booking.status !== 201) throw new Error(`book: ${booking.data.code}`);
  const appointment = booking.data.data;

  const bad = await patientsCreate(
    { first_name: 'Ada', last_name: input.lastName, email: 'not an email' },
    options,
    send,
  );
  // The 422 branch, typed by the document: the code (a known one or a newer one) and the attributes named.
  const refused =
    bad.status === 422
      ? { status: 422, code: bad.data.code, fields: Object.keys(bad.data.errors ?? {}) }
      : { status: bad.status, code: 'none', fields: [] };

  return {
    pages,
    created: patient.id,
    slot: { starts_at, practitioner_id, location_id, appointment_type_id },
    booked: {
      status: booking.status,
      id: appointment.id,
      patient_id: appointment.patient_id,
      starts_at: appointment.starts_at,
    },
    refused,
  };
}
