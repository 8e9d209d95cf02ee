/**
 * The resources staff set up in the portal's Practice section, written through ./setup-writes.ts and
 * audited under their resource name. The activity log (server/domain/activity.ts) reads its "Practice
 * setup" kind from this list: a new setup resource is added here, once.
 */
import { appointmentTypes } from '../../resources/appointment_types';
import { billableItems } from '../../resources/billable_items';
import { locations } from '../../resources/locations';
import { modalities } from '../../resources/modalities';
import { paymentMethods } from '../../resources/payment_methods';
import { practitionerAvailabilities } from '../../resources/practitioner_availabilities';
import { practitioners } from '../../resources/practitioners';
import { referralSources } from '../../resources/referral_sources';
import { resources } from '../../resources/resources';
import { tags } from '../../resources/tags';

export const SETUP_RESOURCES = [
  locations,
  practitioners,
  appointmentTypes,
  practitionerAvailabilities,
  modalities,
  paymentMethods,
  tags,
  referralSources,
  billableItems,
  resources,
] as const;
