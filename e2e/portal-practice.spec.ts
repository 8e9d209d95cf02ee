/**
 * A new clinic sets itself up in the portal's Practice section, as its owner would: a location, an
 * appointment type, a practitioner who works there and offers it, and weekly hours with a break. The
 * opening-hours page then shows the free slots, and GET /v3/api/availability over REST (with a key)
 * offers exactly those. Deleting the location in use is refused with the reason, inside the dialog.
 * Every page and dialog: axe finds nothing serious or critical, at 1440×900 and 390×844 (no sideways
 * scroll on the phone).
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { portalNav } from './support/nav';
import { apiGet, cli } from './support/clinic';
import { SIZES } from './support/sizes';
import { axe, sideways } from './support/axe';

const password = 'e2e password that is long enough';
const ZONE = 'Europe/London';

/** The clinic's calendar day `n` days from now, and its weekday's name. */
function clinicDay(n: number) {
  const at = new Date(Date.now() + n * 86_400_000);
  return {
    date: new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(at),
    weekday: new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, weekday: 'long' }).format(at),
  };
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('the owner adds a location, an appointment type, a practitioner and weekly hours; the slots show in the portal and over REST', async ({
      page,
    }, info) => {
      test.setTimeout(120_000);
      const clinic = `prac${randomBytes(3).toString('hex')}`;
      const at = ['--clinic', clinic, '--region', 'neptune'];
      const owner = `owner@${clinic}.test`;
      cli(['account', 'create', ...at, '--name', 'Harbour Physio', '--timezone', ZONE, '--currency', 'GBP']);
      cli(
        ['user', 'create', ...at, '--email', owner, '--name', 'Olive Owner', '--role', 'owner', '--password-stdin'],
        password,
      );
      const key = cli(['key', 'create', ...at, '--name', 'Booking site', '--access', 'read_only']).trim();
      const port = Number(new URL(String(info.project.use.baseURL)).port);
      const origin = `http://${clinic}.neptune.localhost:${port}`;
      const check = async (state: string) => {
        expect(await axe(page), state).toEqual([]);
        if (size.name === 'phone') expect(await sideways(page), `${state} scrolls sideways`).toBeLessThanOrEqual(0);
      };
      const nav = () => portalNav(page);

      await page.goto(`${origin}/developers/practice/locations`);
      await page.getByLabel('Email').fill(owner);
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Password').press('Enter');
      await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
      await expect(
        (await nav()).getByRole('list', { name: 'Practice' }).getByRole('link', { name: 'Locations' }),
      ).toHaveAttribute('aria-current', 'page');
      // The list has loaded (empty), so the page is hydrated: typing now is not reset.
      await expect(page.getByText('No locations yet')).toBeVisible();
      await check('locations-empty');

      // A mistake is said next to its box, and nothing is added.
      await page.getByLabel('Name (required)').fill('Harbour Street');
      await page.getByLabel('Country code').fill('Great Britain');
      await page.getByRole('button', { name: 'Add location' }).click();
      await expect(page.getByText('Use the two-letter country code (GB, IE, US …)')).toBeVisible();
      await expect(page.getByLabel('Country code')).toHaveAttribute('aria-invalid', 'true');
      await check('locations-error');
      // Two letters that name no country are refused the same way (review point 10).
      await page.getByLabel('Country code').fill('XX');
      await page.getByRole('button', { name: 'Add location' }).click();
      await expect(page.getByText('No country has this code: use GB, IE, US …')).toBeVisible();
      await expect(page.getByLabel('Country code')).toBeFocused();
      await page.getByLabel('Country code').fill('gb');
      await page.getByLabel('Town or city').fill('Leeds');
      await page.getByLabel('Patients can book here online').check();
      await page.getByRole('button', { name: 'Add location' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Added the location.' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Locations' }).getByText('Leeds, GB')).toBeVisible();

      await (await nav()).getByRole('link', { name: 'Appointment types' }).click();
      await expect(page.getByRole('heading', { name: 'Appointment types', level: 1 })).toBeVisible();
      await expect(page.getByText('No appointment types yet')).toBeVisible();
      await page.getByLabel('Name (required)').fill('Follow-up');
      await page.getByLabel('Length in minutes (required)').fill('30');
      await page.getByLabel('Calendar colour').fill('#3366cc');
      await page.getByRole('button', { name: 'Add appointment type' }).click();
      await expect(page.getByRole('table', { name: 'Appointment types' }).getByText('30 min')).toBeVisible();
      await check('appointment-types');

      await (await nav()).getByRole('link', { name: 'Practitioners' }).click();
      await expect(page.getByRole('heading', { name: 'Practitioners', level: 1 })).toBeVisible();
      await expect(page.getByText('No practitioners yet')).toBeVisible();
      await page.getByLabel('Title').fill('Dr');
      await page.getByLabel('First name (required)').fill('Bea');
      await page.getByLabel('Last name (required)').fill('Hart');
      // The clinic's one location is ticked already, and the form says why it matters.
      await expect(page.getByRole('group', { name: 'Works at' }).getByLabel('Harbour Street')).toBeChecked();
      await expect(page.getByText('Without a location they can have no opening hours and no bookings.')).toBeVisible();
      await page.getByRole('group', { name: 'Offers' }).getByLabel('Follow-up').check();
      await page.getByRole('button', { name: 'Add practitioner' }).click();
      await expect(page.getByRole('table', { name: 'Practitioners' }).getByText('Dr Bea Hart')).toBeVisible();
      await check('practitioners');

      // Hours on the day after tomorrow: its slots are in the future whatever the time now.
      const day = clinicDay(2);
      await (await nav()).getByRole('link', { name: 'Opening hours' }).click();
      await expect(page.getByRole('heading', { name: 'Weekly hours: Dr Bea Hart at Harbour Street' })).toBeVisible();
      await expect(
        page.getByText('No free slots in the next 7 days.').or(page.getByText(/no working hours are set/)),
      ).toBeVisible();
      await page.getByLabel(`From (${day.weekday})`).fill('09:00');
      await page.getByLabel(`To (${day.weekday})`).fill('17:00');
      await page.getByRole('button', { name: `Add working hours on ${day.weekday}` }).click();
      const hoursOfDay = page.getByRole('list', { name: `${day.weekday} hours` });
      await expect(hoursOfDay.getByText('09:00–17:00')).toBeVisible();
      // Overlapping working hours are refused next to the time that clashes.
      await page.getByLabel(`From (${day.weekday})`).fill('16:00');
      await page.getByLabel(`To (${day.weekday})`).fill('18:00');
      await page.getByRole('button', { name: `Add working hours on ${day.weekday}` }).click();
      await expect(page.getByText(`overlaps the working hours 09:00–17:00 on ${day.weekday}`)).toBeVisible();
      await page.getByLabel(`Kind (${day.weekday})`).selectOption('break');
      await page.getByLabel(`From (${day.weekday})`).fill('12:00');
      await page.getByLabel(`To (${day.weekday})`).fill('13:00');
      await page.getByRole('button', { name: `Add break on ${day.weekday}` }).click();
      await expect(hoursOfDay.getByText('12:00–13:00')).toBeVisible();
      const slotList = page.getByRole('list', { name: 'Free slots by day' });
      await expect(slotList).toContainText('09:00, 09:30, 10:00');
      await expect(slotList).toContainText('11:30, 13:00');
      await check('opening-hours');
      await page.getByRole('button', { name: `Remove ${day.weekday} 12:00–13:00` }).click();
      await expect(page.getByRole('dialog', { name: `Remove ${day.weekday} 12:00–13:00?` })).toBeVisible();
      await check('opening-hours-remove-dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // Over REST, with the key, the API offers the same slots: 09:00–17:00 in 30 minutes, less the lunch break.
      const locationsRes = await apiGet(port, clinic, key, '/locations');
      const typesRes = await apiGet(port, clinic, key, '/appointment_types');
      expect([locationsRes.status, typesRes.status]).toEqual([200, 200]);
      const slots = await apiGet(
        port,
        clinic,
        key,
        `/availability?location_id=${locationsRes.body.data[0].id}&appointment_type_id=${typesRes.body.data[0].id}&from=${day.date}&to=${day.date}`,
      );
      expect(slots.status).toBe(200);
      expect(slots.body.data.map((s) => String(s.starts_at).slice(11, 16))).toEqual([
        '09:00',
        '09:30',
        '10:00',
        '10:30',
        '11:00',
        '11:30',
        '13:00',
        '13:30',
        '14:00',
        '14:30',
        '15:00',
        '15:30',
        '16:00',
        '16:30',
      ]);

      // The day copied to another in one go (review point 13): its hours and break, after a dialog.
      const next = clinicDay(3).weekday;
      await page.getByRole('button', { name: `Copy ${day.weekday} to other days` }).click();
      const copying = page.getByRole('dialog', { name: `Copy ${day.weekday}'s hours?` });
      await expect(copying).toBeVisible();
      await check('opening-hours-copy-dialog');
      for (const box of await copying.getByRole('checkbox').all()) await box.uncheck();
      await copying.getByRole('checkbox', { name: next }).check();
      await copying.getByRole('button', { name: `Copy to ${next}` }).click();
      await expect(copying).toBeHidden();
      const nextDay = page.getByRole('list', { name: `${next} hours` });
      await expect(nextDay.getByText('09:00–17:00')).toBeVisible();
      await expect(nextDay.getByText('12:00–13:00')).toBeVisible();
      // Who and where are in the address: a reload comes back to the same practitioner and location.
      await expect(page).toHaveURL(/[?&]practitioner=\d+/);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Weekly hours: Dr Bea Hart at Harbour Street' })).toBeVisible();

      // The location is in use now: deleting it is refused, and the dialog says why.
      await (await nav()).getByRole('link', { name: 'Locations' }).click();
      await page.getByRole('button', { name: 'Delete Harbour Street' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete Harbour Street?' });
      await dialog.getByRole('button', { name: 'Delete location' }).click();
      await expect(dialog.getByRole('alert')).toContainText(
        'Harbour Street is in use (4 rows of opening hours and 1 practitioner)',
      );
      await check('locations-delete-refused');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('table', { name: 'Locations' }).getByText('Harbour Street')).toBeVisible();
    });
  });
}
