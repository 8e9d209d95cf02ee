import { RESOURCES } from '../resources';
import { router } from '../trpc';
import { appointmentsRouter } from './appointments';
import { availabilityRouter } from './availability';
import { carePlansRouter } from './care_plans';
import { clinicalNotesRouter } from './clinical_notes';
import { eventsRouter } from './events';
import { filesRouter } from './files';
import { invoicesRouter } from './invoices';
import { lineItemsRouter } from './line_items';
import { metaRouter } from './meta';
import { patientLogsRouter } from './patient_logs';
import { patientTagsRouter } from './patient_tags';
import { patientsRouter } from './patients';
import { paymentAllocationsRouter } from './payment_allocations';
import { paymentsRouter } from './payments';
import { referralSourcesRouter } from './referral_sources';
import { readProcedures } from './read';
import { refundsRouter } from './refunds';
import { portalRouter } from './portal';

/** Resources served with their own router: writes, or reads with embedded data. */
const OWN = {
  appointments: appointmentsRouter,
  patients: patientsRouter,
  patient_tags: patientTagsRouter,
  patient_logs: patientLogsRouter,
  referral_sources: referralSourcesRouter,
  clinical_notes: clinicalNotesRouter,
  files: filesRouter,
  care_plans: carePlansRouter,
  invoices: invoicesRouter,
  line_items: lineItemsRouter,
  payments: paymentsRouter,
  payment_allocations: paymentAllocationsRouter,
  refunds: refundsRouter,
  events: eventsRouter,
};

/** Every other resource is read-only: list and single read generated from its declaration. */
const READ_ONLY = Object.values(RESOURCES).filter((r) => !(r.name in OWN));

export const appRouter = router({
  meta: metaRouter,
  // The portal's procedures: no OpenAPI meta, so never on the REST surface (server/portal/handler.ts).
  portal: portalRouter,
  availability: availabilityRouter,
  ...OWN,
  ...Object.fromEntries(READ_ONLY.map((r) => [r.name, router(readProcedures(r))])),
});

export type AppRouter = typeof appRouter;
