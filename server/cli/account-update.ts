/**
 * `clinic account update`: a clinic's profile (name, time zone, currency, language), changed through
 * the same domain function as the portal's Practice → Clinic profile page: same rules and consequences,
 * an activity-log entry naming the command line. Prints the profile as JSON on stdout; with no option
 * it only prints it.
 */
import type { DbHandle } from '../../db/client';
import { clinicProfileInput, clinicProfileOf, EDITABLE, updateClinicProfile } from '../domain/clinic-profile';
import { cliActor, options, tenant, tenantSpec } from './commands';
import { UsageError } from './usage';

export async function accountUpdate(db: DbHandle, args: string[]): Promise<void> {
  try {
    const values = options(args, {
      ...tenantSpec,
      name: { type: 'string' },
      timezone: { type: 'string' },
      currency: { type: 'string' },
      locale: { type: 'string' },
    });
    const account = await tenant(db, values);
    const { clinic: _c, region: _r, ...fields } = values;
    const patch = clinicProfileInput.safeParse(fields);
    if (!patch.success) {
      const issue = patch.error.issues[0];
      throw new UsageError(`--${String(issue.path[0])}: ${issue.message}`);
    }
    const before = (await clinicProfileOf(db.db, account)).data;
    const after = Object.keys(patch.data).length
      ? await updateClinicProfile(db, account, cliActor, patch.data)
      : before;
    for (const k of EDITABLE)
      if (before[k] !== after[k]) console.error(`${k} changed from ${before[k]} to ${after[k]}`);
    console.log(JSON.stringify({ ...before, ...after }, null, 2));
  } finally {
    await db.close();
  }
}
