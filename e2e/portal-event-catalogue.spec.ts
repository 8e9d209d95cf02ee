/**
 * The event catalogue page (issue 25 §3, issue 24 §4), at a desktop and a phone size: a member who
 * follows a link to it signs in and lands there; every event type is listed by resource with its
 * sentence, whether it is sent today (and why not), and an example payload that is the one the API
 * documents (GET /schema/events) and that Copy puts on the clipboard; the filter narrows the list and
 * says when nothing matches; axe finds nothing serious or critical and nothing scrolls sideways.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';
import { axe, sideways } from './support/axe';

const password = 'e2e password that is long enough';

interface Entry {
  type: string;
  description: string;
  fires: boolean;
  reason: string | null;
  example: unknown;
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('every event type by resource, with its sentence, whether it is sent, and an example to copy', async ({
      page,
      context,
    }, info) => {
      // Three command-line runs, a full-page screenshot and two axe passes over every event type: near
      // the 30 s default on a busy two-core machine.
      test.slow();
      const clinic = `ev${randomBytes(3).toString('hex')}`;
      const member = `pat@${clinic}.test`;
      cli([
        'account',
        'create',
        '--clinic',
        clinic,
        '--region',
        'neptune',
        '--name',
        'Event Physio',
        '--timezone',
        'Europe/London',
        '--currency',
        'GBP',
      ]);
      // A practitioner: the catalogue is documentation, open to every member.
      cli(
        [
          'user',
          'create',
          '--clinic',
          clinic,
          '--region',
          'neptune',
          '--email',
          member,
          '--name',
          'Pat Practitioner',
          '--role',
          'practitioner',
          '--password-stdin',
        ],
        password,
      );
      const origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });

      // What the API documents for each type, read with a key as an integrator would.
      const key = cli([
        'key',
        'create',
        '--clinic',
        clinic,
        '--region',
        'neptune',
        '--name',
        'Docs reader',
        '--access',
        'read_only',
      ]).trim();
      const schema = await page.request.fetch(`http://127.0.0.1:${new URL(origin).port}/v3/api/schema/events`, {
        headers: { host: new URL(origin).host, authorization: `Bearer ${key}` },
      });
      expect(schema.status()).toBe(200);
      const documented = ((await schema.json()) as { data: { event_types: Entry[] } }).data.event_types;
      const of = (type: string) => documented.find((e) => e.type === type)!;

      // A link to the page, signed out: sign in, and land on it.
      await page.goto(`${origin}/developers/webhooks/events`);
      await page.getByLabel('Email').fill(member);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'Event types', level: 1 })).toBeVisible();

      // Every type is there, under its resource's heading.
      await expect(page.getByRole('heading', { level: 3 })).toHaveCount(documented.length);
      const patients = page.getByRole('region', { name: 'patients', exact: true });
      await expect(patients.getByRole('heading', { level: 3 })).toHaveText(
        documented.filter((e) => e.type.startsWith('patients.')).map((e) => e.type),
      );

      const created = of('patients.created');
      const item = patients
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: 'patients.created', exact: true }) });
      await expect(item).toContainText(created.description);
      await expect(item).toContainText('Fires today');
      const example = item.getByRole('figure', { name: 'Example payload of patients.created' });
      expect(JSON.parse(await example.locator('pre').innerText())).toEqual(created.example);

      // A type nothing sends yet says so, and why.
      const silent = documented.find((e) => !e.fires)!;
      const silentItem = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: silent.type, exact: true }) });
      await expect(silentItem).toContainText('Does not fire yet');
      await expect(silentItem).toContainText(`Why not yet: ${silent.reason}`);

      await page.screenshot({ path: test.info().outputPath(`event-catalogue-${size.name}.png`), fullPage: true });
      expect(await axe(page)).toEqual([]);
      if (size.name === 'phone') expect(await sideways(page), 'the page scrolls sideways').toBeLessThanOrEqual(0);

      // Copy puts the example on the clipboard, as shown.
      const copy = item.getByRole('button', { name: 'Copy the example payload of patients.created' });
      await copy.click();
      await expect(copy).toHaveText('Copied');
      expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(created.example);

      // The filter narrows the list, and says when nothing matches.
      const filter = page.getByLabel('Filter event types');
      await filter.fill('cancelled');
      await expect(page.getByRole('heading', { level: 3 })).toHaveText(
        documented.filter((e) => `${e.type} ${e.description}`.toLowerCase().includes('cancelled')).map((e) => e.type),
      );
      await filter.fill('no such event');
      await expect(page.getByText('No event type matches “no such event”.')).toBeVisible();
      await expect(page.getByRole('heading', { level: 3 })).toHaveCount(0);
      expect(await axe(page)).toEqual([]);
    });
  });
}
