/**
 * Practice setup in the portal (the clinic's settings): resources the REST API keeps read-only, one
 * router file each. Reading needs settings.read, every write settings.manage (./procedures.ts). Inputs
 * are the declarations' staff schemas (server/resources/*.ts, `staff`); the writes are
 * server/domain/practice/*. Another clinic's id is not found.
 */
import { router } from '../../../trpc';
import { appointmentTypesRouter } from './appointment-types';
import { billableItemsRouter } from './billable-items';
import { checklistRouter } from './checklist';
import { formTemplatesRouter } from './form-templates';
import { hoursRouter } from './hours';
import { locationsRouter } from './locations';
import { modalitiesRouter } from './modalities';
import { paymentMethodsRouter } from './payment-methods';
import { practitionersRouter } from './practitioners';
import { profileRouter } from './profile';
import { referralSourcesRouter } from './referral-sources';
import { roomsRouter } from './rooms';
import { settingsRouter } from './settings';
import { tagsRouter } from './tags';

export const practiceRouter = router({
  locations: locationsRouter,
  appointmentTypes: appointmentTypesRouter,
  practitioners: practitionersRouter,
  hours: hoursRouter,
  settings: settingsRouter,
  profile: profileRouter,
  checklist: checklistRouter,
  billableItems: billableItemsRouter,
  rooms: roomsRouter,
  formTemplates: formTemplatesRouter,
  modalities: modalitiesRouter,
  paymentMethods: paymentMethodsRouter,
  tags: tagsRouter,
  referralSources: referralSourcesRouter,
});
