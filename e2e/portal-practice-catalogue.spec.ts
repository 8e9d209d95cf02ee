/**
 * The catalogue pages of the portal's Practice section, as the clinic's owner uses them: modalities,
 * payment methods, patient tags and referral sources. On each, a mistake is said next to its box, a
 * record is added, edited and deleted after the confirmation dialog. A referral source a patient was
 * referred by (over REST) is not deleted: the dialog says why and what to do. Every state: axe finds
 * nothing serious or critical, at 1440×900 and 390×844 (no sideways scroll on the phone).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { portalNav } from './support/nav';
import { axe, sideways } from './support/axe';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';

const password = 'e2e password that is long enough';

/** A POST to the clinic's REST API with a key (Node cannot resolve *.localhost names: the Host header names the clinic). */
function apiPost(
  port: number,
  clinic: string,
  key: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: { data: { id: number } } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: 'POST',
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
    req.end(JSON.stringify(body));
  });
}

interface Catalogue {
  link: string;
  title: string;
  noun: string;
  empty: string;
  /** Fills the add form; returns the record's name. */
  add: (page: Page) => Promise<string>;
  /** What the table shows after adding. */
  added: string;
  /** A mistake to make before adding, and the message said next to that box. */
  mistake?: { label: string; value: string; message: string; fix: string };
  /** Changes one thing in the edit form; what the table then shows. */
  edit: (page: Page) => Promise<string>;
}

const CATALOGUES: Catalogue[] = [
  {
    link: 'Modalities',
    title: 'Modalities',
    noun: 'modality',
    empty: 'No modalities yet',
    mistake: { label: 'Colour', value: 'pink', message: 'Use a hex colour such as #3366cc', fix: '#aa3366' },
    add: async (page) => {
      await page.getByLabel('Name (required)').fill('Dry needling');
      return 'Dry needling';
    },
    added: '#aa3366',
    edit: async (page) => {
      await page.getByLabel('Colour').fill('#3366cc');
      return '#3366cc';
    },
  },
  {
    link: 'Payment methods',
    title: 'Payment methods',
    noun: 'payment method',
    empty: 'No payment methods yet',
    mistake: { label: 'Position in the list', value: '-1', message: 'Use 0 or more', fix: '' },
    add: async (page) => {
      await page.getByLabel('Name (required)').fill('Voucher');
      await page.getByLabel('Type (required)').selectOption({ label: 'Bank transfer' });
      return 'Voucher';
    },
    added: 'Bank transfer',
    edit: async (page) => {
      await page.getByLabel('Active (can be chosen for new payments)').uncheck();
      return 'Inactive';
    },
  },
  {
    link: 'Patient tags',
    title: 'Patient tags',
    noun: 'tag',
    empty: 'No patient tags yet',
    add: async (page) => {
      await page.getByLabel('Name (required)').fill('Runner');
      await page.getByLabel('Position in the list').fill('5');
      return 'Runner';
    },
    added: '5',
    edit: async (page) => {
      await page.getByLabel('Position in the list').fill('2');
      return '2';
    },
  },
  {
    link: 'Referral sources',
    title: 'Referral sources',
    noun: 'referral source',
    empty: 'No referral sources yet',
    add: async (page) => {
      await page.getByLabel('Name (required)').fill('Leaflet');
      await page.getByLabel('Category').fill('Advert');
      return 'Leaflet';
    },
    added: 'Advert',
    edit: async (page) => {
      await page.getByLabel('Category').fill('Word of mouth');
      return 'Word of mouth';
    },
  },
];

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('the owner adds, edits and deletes a modality, a payment method, a patient tag and a referral source; one in use is refused with the reason', async ({
      page,
    }, info) => {
      test.setTimeout(150_000);
      const clinic = `cat${randomBytes(3).toString('hex')}`;
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
      const nav = () => portalNav(page);

      await page.goto(`${origin}/developers/practice/locations`);
      await page.getByLabel('Email').fill(owner);
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Password').press('Enter');
      await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();

      for (const c of CATALOGUES) {
        await (await nav()).getByRole('list', { name: 'Practice' }).getByRole('link', { name: c.link }).click();
        await expect(page.getByRole('heading', { name: c.title, level: 1 })).toBeVisible();
        // The list has loaded (empty), so the page is hydrated: typing now is not reset.
        await expect(page.getByText(c.empty)).toBeVisible();
        await check(`${c.link}: empty`);
        const table = () => page.getByRole('table', { name: c.title });

        const name = await c.add(page);
        if (c.mistake) {
          await page.getByLabel(c.mistake.label).fill(c.mistake.value);
          await page.getByRole('button', { name: `Add ${c.noun}` }).click();
          await expect(page.getByText(c.mistake.message)).toBeVisible();
          await expect(page.getByLabel(c.mistake.label)).toHaveAttribute('aria-invalid', 'true');
          await expect(page.getByText(c.empty)).toBeVisible();
          await check(`${c.link}: mistake`);
          await page.getByLabel(c.mistake.label).fill(c.mistake.fix);
        }
        await page.getByRole('button', { name: `Add ${c.noun}` }).click();
        await expect(page.getByText(`Added the ${c.noun}.`)).toBeVisible();
        await expect(table().getByText(name)).toBeVisible();
        await expect(table().getByText(c.added, { exact: true })).toBeVisible();
        await check(`${c.link}: added`);

        await page.getByRole('button', { name: `Edit ${name}` }).click();
        const shown = await c.edit(page);
        await page.getByRole('button', { name: 'Save changes' }).click();
        await expect(page.getByText(`Saved ${name}.`)).toBeVisible();
        await expect(table().getByText(shown, { exact: true })).toBeVisible();

        await page.getByRole('button', { name: `Delete ${name}` }).click();
        const dialog = page.getByRole('dialog', { name: `Delete ${name}?` });
        await expect(dialog).toBeVisible();
        await check(`${c.link}: delete dialog`);
        await dialog.getByRole('button', { name: `Delete ${c.noun}` }).click();
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await expect(page.getByText(`Deleted ${name}.`)).toBeVisible();
        await expect(page.getByText(c.empty)).toBeVisible();
      }

      // A source a patient was referred by (recorded over REST) stays: the dialog says why and what to do instead.
      await page.getByLabel('Name (required)').fill('Harbour GP');
      await page.getByRole('button', { name: 'Add referral source' }).click();
      await expect(page.getByRole('table', { name: 'Referral sources' }).getByText('Harbour GP')).toBeVisible();
      const sources = await new Promise<{ data: { id: number; name: string }[] }>((resolve, reject) => {
        http
          .get(
            {
              host: '127.0.0.1',
              port,
              path: '/v3/api/referral_sources',
              headers: { host: `${clinic}.neptune.localhost:${port}`, authorization: `Bearer ${key}` },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (ch) => chunks.push(ch));
              res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
            },
          )
          .on('error', reject);
      });
      const source = sources.data.find((s) => s.name === 'Harbour GP')!;
      const patient = await apiPost(port, clinic, key, '/patients', {
        first_name: 'Ref',
        last_name: 'Erred',
        referral_source_id: source.id,
        referral_source_type: 'referral_source',
      });
      expect(patient.status).toBe(201);
      await page.getByRole('button', { name: 'Delete Harbour GP' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete Harbour GP?' });
      await dialog.getByRole('button', { name: 'Delete referral source' }).click();
      await expect(dialog.getByRole('alert')).toContainText(
        'Harbour GP is in use (1 patient referred by it), so it cannot be deleted. Make it inactive instead',
      );
      await check('referral sources: delete refused');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('table', { name: 'Referral sources' }).getByText('Harbour GP')).toBeVisible();
    });
  });
}
