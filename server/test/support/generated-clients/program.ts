/**
 * The small program every generated client runs (server/test/openapi.generators.test.ts): the first
 * things an integrator writes, each in the idiom of its generator (hey-api.mts, orval.mts,
 * openapi-typescript.mts here), with no cast:
 *
 * 1. create a patient who is a VIP (`metadata: { vip: true }`);
 * 2. list the patients with a last name who are VIPs (`metadata[vip]=eq:true`), sorted by id, page by page;
 * 3. find the first free slot like the clinic's first appointment (GET /availability) and book it for the patient;
 * 4. create a patient with a malformed email and read the 422's `code` and the attributes it names.
 *
 * The programs are `.mts` files so the project's `tsc` (which includes `*.ts`) skips them: they import
 * the client generated into the test's cache folder, and the test compiles them there with `tsc --strict`.
 */
export interface ProgramInput {
  /** `http://{clinic host}/v3/api` */
  baseUrl: string;
  apiKey: string;
  /** Reaches the test server with the clinic's Host (Node's fetch would resolve the host itself). */
  fetch: typeof fetch;
  lastName: string;
  pageSize: number;
}

export interface ProgramOutcome {
  /** Ids of each page of the VIPs with the last name. */
  pages: number[][];
  created: number;
  slot: { starts_at: string; practitioner_id: number; location_id: number; appointment_type_id: number };
  booked: { status: number; id: number; patient_id: number; starts_at: string };
  refused: { status: number; code: string; fields: string[] };
}

/** The entry point each program exports. */
export type Program = (input: ProgramInput) => Promise<ProgramOutcome>;

/** A code the server does not send today: each program assigns it to its client's error-code type, which compiles only while that enumeration is open. */
export const CODE_ADDED_LATER = 'code_added_later';
