import { addresses } from './addresses';
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
import { deletedEntities } from './deleted_entities';

/** Every resource the API serves, by name. */
export const RESOURCES: Record<string, Resource> = Object.fromEntries(
  [
    addresses,
    appointmentTypes,
    billableItems,
    deletedEntities,
    locations,
    modalities,
    numbers,
    patients,
    paymentMethods,
    practitionerAvailabilities,
    practitioners,
    referralSources,
    resources,
    tags,
  ].map((r) => [r.name, r as unknown as Resource]),
);
