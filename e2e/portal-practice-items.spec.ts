/**
 * The billable items, rooms and equipment and form templates pages of the portal's Practice section, as
 * the clinic's owner uses them: a mistake is said next to its box and saves nothing; a record is added,
 * edited and deleted after the confirmation dialog; a billable item on an invoice (made over REST) is
 * not deleted and the dialog says what to do instead; form templates are shown read-only and the page
 * says so. Every state: axe finds nothing serious or critical, at 1440×900 and 390×844 (no sideways
 * scroll on the phone).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { portalNav } from './support/nav';
import { axe, sideways } from './support/axe';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';

const password = 'e2e password that is long enough';

/** A call of the clinic's REST API with a key (Node cannot resolve *.localhost names: the Host header names the clinic). */
function api(
  port: number,
  clinic: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { data: { id: number; name?: string }[] & { id: number } } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method,
        host: '127.0.0.1',
        port,
        path: `/v3/api${path}`,
        headers: {
          host: `${clinic}.neptune.localhost:${port}`,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('the owner adds, edits and deletes a billable item and a room; an invoiced item is refused with the reason; form templates are read-only', async ({
      page,
    }, info) => {
      test.setTimeout(150_000);
      const clinic = `itm${randomBytes(3).toString('hex')}`;
      const at = ['--clinic', clinic, '--region', 'neptune'];
      const owner = `owner@${clinic}.test`;
      cli(['account', 'create', ...at, '--name', 'Harbour Physio', '--timezone', 'Europe/London', '--currency', 'GBP']);
      cli(
        ['user', 'create', ...at, '--email', owner, '--name', 'Olive Owner', '--role', 'owner', '--password-stdin'],
        password,
      );
      const key = cli(['key', 'create', ...at, '--name', 'Front desk', '--access', 'read_write']).trim();
      const port = Number(new URL(String(info.project.use.baseURL)).port);
      const origin = `http://${clinic}.neptune.localhost:${port}`;
      const check = async (state: string) => {
        expect(await axe(page), state).toEqual([]);
        if (size.name === 'phone') expect(await sideways(page), `${state} scrolls sideways`).toBeLessThanOrEqual(0);
      };
      const practice = async (link: string) =>
        (await portalNav(page)).getByRole('list', { name: 'Practice' }).getByRole('link', { name: link });

      await page.goto(`${origin}/developers/practice/locations`);
      await page.getByLabel('Email').fill(owner);
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Password').press('Enter');
      await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
      await expect(page.getByText('No locations yet')).toBeVisible();
      await page.getByLabel('Name (required)').fill('Harbour Street');
      await page.getByRole('button', { name: 'Add location' }).click();
      await expect(page.getByText('Added the location.')).toBeVisible();

      // Billable items: a price with three decimals is said next to its box; the price is read back exactly.
      await (await practice('Billable items')).click();
      await expect(page.getByRole('heading', { name: 'Billable items', level: 1 })).toBeVisible();
      await expect(page.getByText('No billable items yet')).toBeVisible();
      await expect(page.getByLabel('Price (GBP) (required)')).toBeVisible();
      await check('billable items: empty');
      const items = () => page.getByRole('table', { name: 'Billable items' });
      await page.getByLabel('Name (required)').fill('Sports massage');
      await page.getByLabel('Type (required)').selectOption({ label: 'Service' });
      await page.getByLabel('Price (GBP) (required)').fill('12.345');
      await page.getByLabel('Tax rate (%)').fill('20');
      await page.getByRole('button', { name: 'Add billable item' }).click();
      await expect(
        page.getByText('Enter a price such as 45.00 (at most two decimals, no currency sign)'),
      ).toBeVisible();
      await expect(page.getByLabel('Price (GBP) (required)')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('No billable items yet')).toBeVisible();
      await check('billable items: mistake');
      await page.getByLabel('Price (GBP) (required)').fill('19.99');
      await page.getByRole('button', { name: 'Add billable item' }).click();
      await expect(page.getByText('Added the billable item.')).toBeVisible();
      await expect(items().getByText('£19.99', { exact: true })).toBeVisible();
      await expect(items().getByText('20%', { exact: true })).toBeVisible();
      await check('billable items: added');
      const listed = await api(port, clinic, key, 'GET', '/billable_items');
      expect(listed.body.data.map((i) => [i.name, (i as unknown as { price: string }).price])).toEqual([
        ['Sports massage', '19.99'],
      ]);

      await page.getByRole('button', { name: 'Edit Sports massage' }).click();
      // As people write a price: the sign is left out for them (review point 29).
      await page.getByLabel('Price (GBP) (required)').fill('£45');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Saved Sports massage.')).toBeVisible();
      await expect(items().getByText('£45.00', { exact: true })).toBeVisible();

      await page.getByRole('button', { name: 'Delete Sports massage' }).click();
      let dialog = page.getByRole('dialog', { name: 'Delete Sports massage?' });
      await expect(dialog).toBeVisible();
      await check('billable items: delete dialog');
      await dialog.getByRole('button', { name: 'Delete billable item' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByText('Deleted Sports massage.')).toBeVisible();
      await expect(page.getByText('No billable items yet')).toBeVisible();

      // An item on an invoice stays: the dialog says why and what to do instead.
      await page.getByLabel('Name (required)').fill('Consultation');
      await page.getByLabel('Price (GBP) (required)').fill('60.00');
      await page.getByRole('button', { name: 'Add billable item' }).click();
      await expect(items().getByText('Consultation')).toBeVisible();
      const item = (await api(port, clinic, key, 'GET', '/billable_items')).body.data.find(
        (i) => i.name === 'Consultation',
      )!;
      const patient = await api(port, clinic, key, 'POST', '/patients', { first_name: 'Ina', last_name: 'Voice' });
      expect(
        (
          await api(port, clinic, key, 'POST', '/invoices', {
            patient_id: patient.body.data.id,
            line_items: [{ billable_item_id: item.id, quantity: 1 }],
          })
        ).status,
      ).toBe(201);
      await page.getByRole('button', { name: 'Delete Consultation' }).click();
      dialog = page.getByRole('dialog', { name: 'Delete Consultation?' });
      await dialog.getByRole('button', { name: 'Delete billable item' }).click();
      await expect(dialog.getByRole('alert')).toContainText(
        'Consultation is in use (1 invoice line), so it cannot be deleted. Make it inactive instead',
      );
      await check('billable items: delete refused');
      await page.keyboard.press('Escape');
      await expect(items().getByText('Consultation')).toBeVisible();

      // Rooms and equipment: at the clinic's location; a bad colour is said next to its box; archived on edit.
      await (await practice('Rooms and equipment')).click();
      await expect(page.getByRole('heading', { name: 'Rooms and equipment', level: 1 })).toBeVisible();
      await expect(page.getByText('No rooms or equipment yet')).toBeVisible();
      await check('rooms: empty');
      const rooms = () => page.getByRole('table', { name: 'Rooms and equipment' });
      await page.getByLabel('Name (required)').fill('Room 2');
      await expect(page.getByLabel('Location (required)')).toHaveValue(/\d+/);
      await page.getByLabel('Calendar colour').fill('green');
      await page.getByRole('button', { name: 'Add room or piece of equipment' }).click();
      await expect(page.getByText('Use a hex colour such as #3366cc')).toBeVisible();
      await expect(page.getByLabel('Calendar colour')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('No rooms or equipment yet')).toBeVisible();
      await check('rooms: mistake');
      await page.getByLabel('Calendar colour').fill('#22aa66');
      await page.getByRole('button', { name: 'Add room or piece of equipment' }).click();
      await expect(page.getByText('Added the room or piece of equipment.')).toBeVisible();
      await expect(rooms().getByText('Room 2')).toBeVisible();
      await expect(rooms().getByText('Harbour Street', { exact: true })).toBeVisible();
      await check('rooms: added');
      const restRooms = await api(port, clinic, key, 'GET', '/resources');
      expect(restRooms.body.data.map((r) => r.name)).toEqual(['Room 2']);

      await page.getByRole('button', { name: 'Edit Room 2' }).click();
      await page.getByLabel('Status (required)').selectOption({ label: 'Archived (retired)' });
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Saved Room 2.')).toBeVisible();
      await expect(rooms().getByText('Archived', { exact: true })).toBeVisible();

      await page.getByRole('button', { name: 'Delete Room 2' }).click();
      dialog = page.getByRole('dialog', { name: 'Delete Room 2?' });
      await expect(dialog).toBeVisible();
      await check('rooms: delete dialog');
      await dialog.getByRole('button', { name: 'Delete room or piece of equipment' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByText('Deleted Room 2.')).toBeVisible();
      await expect(page.getByText('No rooms or equipment yet')).toBeVisible();

      // Form templates are written in the clinic software: a clinic without any is not offered the page
      // (review point 12), and at its address the page says why it is empty.
      await expect(await practice('Form templates')).toHaveCount(0);
      await page.goto(`${origin}/developers/practice/form-templates`);
      await expect(page.getByRole('heading', { name: 'Form templates', level: 1 })).toBeVisible();
      await expect(page.getByText('Form templates are read-only here')).toBeVisible();
      await expect(page.getByText('No form templates yet.')).toBeVisible();
      await expect(page.getByRole('button', { name: /Add/ })).toHaveCount(0);
      await check('form templates');
    });
  });
}
