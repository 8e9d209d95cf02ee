/**
 * `clinic practice-settings`: a clinic's practice settings, read or changed through the same domain
 * function as the portal's Practice → Settings page (same rules, an activity-log entry naming the
 * command line). Prints the settings as JSON on stdout; what changed goes to stderr.
 */
import type { DbHandle } from '../../db/client';
import { practiceSettingsInput, practiceSettingsOf, updatePracticeSettings } from '../domain/practice_settings';
import { cliActor, options, tenant, tenantSpec } from './commands';
import { UsageError } from './usage';

export async function practiceSettings(db: DbHandle, args: string[]): Promise<void> {
  try {
    const values = options(args, { ...tenantSpec, 'missed-after-hours': { type: 'string' } });
    const account = await tenant(db, values);
    const raw = values['missed-after-hours'];
    if (raw === undefined) {
      console.log(JSON.stringify(await practiceSettingsOf(db.db, account.id), null, 2));
      return;
    }
    if (typeof raw !== 'string' || !(raw === 'off' || /^\d+$/.test(raw)))
      throw new UsageError('--missed-after-hours must be a number of hours or off');
    // The portal's own input rule: the hours are checked where the page checks them.
    const patch = practiceSettingsInput.safeParse(
      raw === 'off' ? { mark_missed: false } : { mark_missed: true, mark_missed_after_hours: Number(raw) },
    );
    if (!patch.success)
      throw new UsageError(`--missed-after-hours: ${patch.error.issues[0].message.replace(/^Enter a/, 'must be a')}`);
    const after = await updatePracticeSettings(db, account, cliActor, patch.data);
    console.error(
      after.mark_missed
        ? `unarrived appointments are marked missed ${after.mark_missed_after_hours} hour(s) after they end`
        : 'unarrived appointments are not marked missed',
    );
    console.log(JSON.stringify(after, null, 2));
  } finally {
    await db.close();
  }
}
