import { RESOURCES } from '../resources';
import { router } from '../trpc';
import { metaRouter } from './meta';
import { patientsRouter } from './patients';
import { readProcedures } from './read';

/** Resources whose procedures are all generated reads (their own routers add writes when they get them). */
const READ_ONLY = Object.values(RESOURCES).filter((r) => r.write.length === 0);

export const appRouter = router({
  meta: metaRouter,
  patients: patientsRouter,
  ...Object.fromEntries(READ_ONLY.map((r) => [r.name, router(readProcedures(r))])),
});

export type AppRouter = typeof appRouter;
