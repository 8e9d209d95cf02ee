import { addresses } from './addresses';
import { appointments } from './appointments';
import { appointmentTypes } from './appointment_types';
import { billableItems } from './billable_items';
import type { Resource } from './define';
import { locations } from './locations';
import { modalities } from './modalities';
import { numbers } from './numbers';
import { patients } from './patients';
import { paymentMethods } from './payment_methods';
import { practitionerAvailabilities } from './practitioner_availabilities';
import { practitioners } from './practitioners';
import { referralSources } from './referral_sources';
import { resources } from './resources';
import { tags } from './tags';
import { invoices } from './invoices';
import { lineItems } from './line_items';
import { paymentAllocations } from './payment_allocations';
import { payments } from './payments';
import { refunds } from './refunds';
import { carePlans } from './care_plans';
import { clinicalNotes } from './clinical_notes';
import { deletedEntities } from './deleted_entities';
import { events } from './events';
import { files } from './files';
import { formTemplates } from './form_templates';
import { patientLogs } from './patient_logs';
import { patientLogTags } from './patient_log_tags';
import { patientTags } from './patient_tags';

/** Every resource the API serves, by name. */
export const RESOURCES: Record<string, Resource> = Object.fromEntries(
  [
    addresses,
    appointments,
    appointmentTypes,
    billableItems,
    carePlans,
    clinicalNotes,
    deletedEntities,
    events,
    files,
    formTemplates,
    invoices,
    lineItems,
    locations,
    modalities,
    numbers,
    patients,
    patientLogs,
    patientLogTags,
    patientTags,
    paymentAllocations,
    paymentMethods,
    payments,
    practitionerAvailabilities,
    practitioners,
    referralSources,
    refunds,
    resources,
    tags,
  ].map((r) => [r.name, r as unknown as Resource]),
);

/**
 * Resources of the specification that this version does not serve yet. GET /schema lists them as
 * unavailable so integrators see the whole surface; they disappear from here as they are built.
 */
export const PLANNED: Record<string, string> = {};

/** The resources that follow a parent (follows.ts), all the way down: what its delete or void takes with it. */
export const followersOf = (parent: string): Resource[] =>
  Object.values(RESOURCES)
    .filter((r) => r.follows?.parent.name === parent)
    .flatMap((r) => [r, ...followersOf(r.name)]);
