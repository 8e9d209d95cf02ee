/**
 * The front desk's exceptions and the practice settings, as an admin at reception would use them: on
 * Opening hours, a day off for one date takes that day out of the free-slots preview, changing it to a
 * few hours gives the morning back, a date gone by is refused next to the date, and removing it (after
 * confirming) brings the day back. On Settings, "mark unarrived appointments missed" is turned on with
 * its hours, a bad number said next to the box, and what was saved is there after a reload; on the
 * desktop that flow is done with the keyboard alone. Every state: axe finds nothing serious or critical,
 * at 1440×900 and 390×844 (no sideways scroll on the phone).
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { portalNav } from './support/nav';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';
import { axe, sideways } from './support/axe';

const password = 'e2e password that is long enough';
const ZONE = 'Europe/London';

/** The clinic's calendar day `n` days from now. */
const clinicDate = (n: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + n * 86_400_000),
  );
/** How the preview names a day ("Sunday 29 November"), and the exceptions list ("Sunday 29 November 2026"). */
const previewDay = (d: string) =>
  new Date(`${d}T12:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
const listDay = (d: string) =>
  new Date(`${d}T12:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** A portal call from the signed-in page (setup that is not under test here: the Practice pages' own spec drives it). */
async function call(page: Page, proc: string, input: unknown) {
  const res = await page.evaluate(
    async ([p, body]) => {
      const r = await fetch(`/developers/trpc/${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: r.status, json: await r.json() };
    },
    [proc, input] as const,
  );
  expect(res.status, `${proc} ${JSON.stringify(res.json)}`).toBe(200);
  return res.json.result.data as { id: number };
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('an admin adds a day off and sees the preview change, edits and removes it; turns on marking missed appointments', async ({
      page,
    }, info) => {
      test.setTimeout(120_000);
      const clinic = `hrs${randomBytes(3).toString('hex')}`;
      const at = ['--clinic', clinic, '--region', 'neptune'];
      const admin = `desk@${clinic}.test`;
      cli(['account', 'create', ...at, '--name', 'Quay Physio', '--timezone', ZONE, '--currency', 'GBP']);
      cli(
        ['user', 'create', ...at, '--email', admin, '--name', 'Rita Desk', '--role', 'admin', '--password-stdin'],
        password,
      );
      const origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;
      const check = async (state: string) => {
        expect(await axe(page), state).toEqual([]);
        if (size.name === 'phone') expect(await sideways(page), `${state} scrolls sideways`).toBeLessThanOrEqual(0);
      };
      const nav = () => portalNav(page);

      await page.goto(`${origin}/developers/practice/hours`);
      await page.getByLabel('Email').fill(admin);
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Password').press('Enter');
      await expect(page.getByRole('heading', { name: 'Opening hours', level: 1 })).toBeVisible();
      // A practitioner who works 09:00–12:00 every day, offering an hour-long type.
      const site = await call(page, 'practice.locations.create', { name: 'Quay Street' });
      const type = await call(page, 'practice.appointmentTypes.create', { name: 'Assessment', duration_minutes: 60 });
      const p = await call(page, 'practice.practitioners.create', {
        first_name: 'Sam',
        last_name: 'Reed',
        location_ids: [site.id],
        appointment_type_ids: [type.id],
      });
      for (const day of ['0', '1', '2', '3', '4', '5', '6'])
        await call(page, 'practice.hours.create', {
          practitioner_id: p.id,
          location_id: site.id,
          type: 'open',
          day,
          starts_at: '09:00',
          ends_at: '12:00',
        });
      await page.reload();

      // Two days ahead: its slots are in the future whatever the time now.
      const date = clinicDate(2);
      const slots = page.getByRole('list', { name: 'Free slots by day' });
      await expect(slots).toContainText(`${previewDay(date)}: 09:00, 10:00, 11:00`);
      await expect(page.getByText('No days off or extra hours from today on.')).toBeVisible();
      await check('exceptions-empty');

      // A day off: the whole day (the default), with a note.
      const add = page.getByRole('form', { name: 'Add a day off or extra hours' });
      await add.getByLabel('Date', { exact: true }).fill(date);
      await expect(add.getByLabel('Whole day')).toBeChecked();
      await add.getByLabel('Note (optional)').fill('Training day');
      await add.getByRole('button', { name: 'Add' }).click();
      const upcoming = page.getByRole('list', { name: 'Upcoming days off and extra hours' });
      await expect(upcoming).toContainText(`${listDay(date)}Whole day(Training day)`);
      await expect(slots).not.toContainText(previewDay(date));
      await expect(slots).toContainText(`${previewDay(clinicDate(3))}: 09:00, 10:00, 11:00`);
      await check('exceptions-day-off');

      // A date gone by is refused next to the date, and nothing is added.
      await add.getByLabel('Date', { exact: true }).fill(clinicDate(-1));
      await add.getByRole('button', { name: 'Add' }).click();
      await expect(add.getByText(/^is in the past: choose today \(\d{4}-\d{2}-\d{2}\) or a later date$/)).toBeVisible();
      await expect(add.getByLabel('Date', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await expect(upcoming.getByRole('listitem')).toHaveCount(1);
      await check('exceptions-past-date');

      // Only the last hour off: the morning is bookable again.
      await page.getByRole('button', { name: `Edit Time off on ${listDay(date)}, whole day` }).click();
      const edit = page.getByRole('form', { name: `Edit Time off on ${listDay(date)}, whole day` });
      await edit.getByLabel('Whole day').uncheck();
      await edit.getByLabel('From', { exact: true }).fill('11:00');
      await edit.getByLabel('To', { exact: true }).fill('12:00');
      await check('exceptions-edit');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(upcoming).toContainText('11:00–12:00');
      await expect(slots).toContainText(`${previewDay(date)}: 09:00, 10:00`);
      await expect(slots).not.toContainText(`${previewDay(date)}: 09:00, 10:00, 11:00`);

      // Removing it asks first; Escape keeps it, confirming brings the whole day back.
      const remove = `Remove Time off on ${listDay(date)}, 11:00–12:00`;
      await page.getByRole('button', { name: remove }).click();
      const dialog = page.getByRole('dialog', { name: `${remove}?` });
      await expect(dialog).toContainText('Sam Reed at Quay Street works their weekly hours');
      await check('exceptions-remove-dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(upcoming.getByRole('listitem')).toHaveCount(1);
      await page.getByRole('button', { name: remove }).click();
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByText('No days off or extra hours from today on.')).toBeVisible();
      await expect(slots).toContainText(`${previewDay(date)}: 09:00, 10:00, 11:00`);

      // A bank holiday for the whole clinic, entered once (review point 13): the day leaves the preview.
      const closing = page.getByRole('form', { name: 'Add a closure' });
      await closing.getByLabel('Date', { exact: true }).fill(date);
      await closing.getByLabel('Note (optional)').fill('Bank holiday');
      await closing.getByRole('button', { name: 'Add closure' }).click();
      const closures = page.getByRole('list', { name: 'Closures' });
      const closed = `Quay Street closed on ${listDay(date)}, whole day`;
      await expect(closures).toContainText(`${closed} (Bank holiday)`);
      await expect(slots).not.toContainText(previewDay(date));
      await check('closures');
      await page.getByRole('button', { name: `Remove: ${closed}` }).click();
      await page
        .getByRole('dialog', { name: `Open Quay Street on ${listDay(date)}?` })
        .getByRole('button', { name: 'Remove the closure' })
        .click();
      await expect(page.getByText('No closures ahead.')).toBeVisible();
      await expect(slots).toContainText(`${previewDay(date)}: 09:00, 10:00, 11:00`);

      // Practice settings.
      await (await nav()).getByRole('list', { name: 'Practice' }).getByRole('link', { name: 'Settings' }).click();
      await expect(page.getByRole('heading', { name: 'Practice settings', level: 1 })).toBeVisible();
      const toggle = page.getByLabel('Mark unarrived appointments missed');
      const hours = page.getByLabel('Hours after the appointment ends');
      await expect(toggle).not.toBeChecked();
      await expect(hours).toHaveValue('2');
      await expect(hours).toBeDisabled();
      await check('settings');
      if (size.name === 'desktop') {
        // Keyboard alone: Tab to the box, Space, Tab to the hours, type, Enter saves.
        for (let i = 0; i < 60 && !(await toggle.evaluate((el) => el === document.activeElement)); i++)
          await page.keyboard.press('Tab');
        await expect(toggle).toBeFocused();
        await page.keyboard.press('Space');
        await page.keyboard.press('Tab');
        await expect(hours).toBeFocused();
        await page.keyboard.press('Control+A');
        await page.keyboard.type('0');
        await page.keyboard.press('Enter');
        await expect(page.getByText('Enter a whole number of hours from 1 to 168')).toBeVisible();
        await expect(hours).toHaveAttribute('aria-invalid', 'true');
        await check('settings-error');
        await page.keyboard.press('Control+A');
        await page.keyboard.type('3');
        await page.keyboard.press('Tab');
        await expect(page.getByRole('button', { name: 'Save settings' })).toBeFocused();
        await page.keyboard.press('Enter');
      } else {
        await toggle.check();
        await hours.fill('0');
        await page.getByRole('button', { name: 'Save settings' }).click();
        await expect(page.getByText('Enter a whole number of hours from 1 to 168')).toBeVisible();
        await check('settings-error');
        await hours.fill('3');
        await page.getByRole('button', { name: 'Save settings' }).click();
      }
      await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
      await page.reload();
      await expect(toggle).toBeChecked();
      await expect(hours).toHaveValue('3');
    });
  });
}
