/**
 * The API reference renders the served OpenAPI document (Redoc): an operation with its parameters, a
 * request body's example, this clinic's base URL; the Beta label; the changelog (its own page) as GET /changelog
 * serves it; at 1440×900 and 390×844 with no serious or critical axe finding, no sideways scroll on the
 * phone and nothing refused by the page's CSP. Screenshots go to /tmp/notes/shots/.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type ConsoleMessage } from '@playwright/test';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';
import { axe } from './support/axe';

const password = 'e2e password that is long enough';
const SHOTS = '/tmp/notes/shots';

/** An entry as the page shows it: the file's inline Markdown (`code`, **bold**) without its marks. */
const shown = (markdown: string) => markdown.replace(/`|\*\*/g, '');

interface Doc {
  paths: Record<
    string,
    Record<
      string,
      {
        summary: string;
        parameters?: { name: string; in: string }[];
        requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
      }
    >
  >;
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('the reference renders the document with this clinic’s base URL, the Beta label and the changelog, under the CSP and axe', async ({
      page,
    }, info) => {
      test.setTimeout(240_000);
      const clinic = `ref${randomBytes(3).toString('hex')}`;
      const member = `ann@${clinic}.test`;
      cli([
        'account',
        'create',
        '--clinic',
        clinic,
        '--region',
        'neptune',
        '--name',
        'Reference Physio',
        '--timezone',
        'Europe/London',
        '--currency',
        'GBP',
      ]);
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
          'Ann Reader',
          '--role',
          'practitioner',
          '--password-stdin',
        ],
        password,
      );
      const origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;

      const refused: string[] = [];
      page.on('console', (m: ConsoleMessage) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      await page.goto(`${origin}/developers/sign-in?next=%2Fdevelopers%2Freference`);
      await page.getByLabel('Email').fill(member);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();

      const title = page.getByRole('heading', { name: /^API reference/, level: 1 });
      await expect(title).toBeVisible();
      // What the server serves, to compare the page with (not a copy of it); from the page, as Node cannot resolve *.localhost.
      const served = (path: string) => page.evaluate((p) => fetch(p).then((r) => r.json()), path);
      const doc = (await served('/v3/api/openapi.json')) as Doc;
      const changelog = (await served('/v3/api/changelog')) as { data: { changes: { text: string }[] }[] };
      const list = doc.paths['/patients'].get;
      const create = doc.paths['/patients'].post;
      const example = create.requestBody!.content['application/json'].example!;

      await expect(title.getByText('Beta', { exact: true })).toBeVisible();
      await expect(page.getByText(/The API is in Beta/)).toBeVisible();

      // The changelog is a page of its own (it pushed the operations ~3,650 px down): not here.
      await expect(page.getByRole('region', { name: 'Changelog' })).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/reference-top-${size.name}.png` });

      // Redoc has rendered the document, a resource at a time: patients first, another one chosen, then patients again.
      const operations = page.getByRole('region', { name: 'Operations' });
      const top = (await operations.boundingBox())!.y;
      expect(top, 'where the operations start').toBeLessThan(size.name === 'desktop' ? 1200 : 2500);
      const listSection = operations.locator('[data-section-id="operation/patients-list"]');
      await expect(listSection.getByRole('heading', { name: list.summary })).toBeVisible({ timeout: 30_000 });
      // On a laptop through Redoc's menu; on a phone (where that menu is off-screen) through the Resource select.
      if (size.name === 'desktop')
        await operations
          .getByRole('navigation', { name: 'Operations by resource' })
          .getByRole('menuitem', { name: 'appointments', exact: true })
          .click();
      else await operations.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'appointments' });
      await expect(operations.getByRole('heading', { name: doc.paths['/appointments'].get.summary })).toBeVisible();
      await expect(listSection).toHaveCount(0);
      // The resource's REST operations come first, its webhook events after them (review point 33).
      const sections = await operations
        .locator('[data-section-id^="operation/"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-section-id')!));
      const isEvent = (id: string) => id.startsWith('operation/webhook_');
      const firstEvent = sections.findIndex(isEvent);
      expect(firstEvent, sections.join(', ')).toBeGreaterThan(0);
      expect(sections.slice(firstEvent).every(isEvent), sections.join(', ')).toBe(true);
      await operations.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'patients' });
      await expect(listSection.getByRole('heading', { name: list.summary })).toBeVisible({ timeout: 30_000 });
      for (const name of list
        .parameters!.filter((p) => p.in === 'query')
        .slice(0, 4)
        .map((p) => p.name)) {
        await expect(listSection.getByText(name, { exact: true }).first()).toBeVisible();
      }
      // The endpoint opens to this clinic's address, not the document's {clinic}.{region}.{domain} template.
      await listSection
        .getByRole('button', { name: /get \/patients/i })
        .first()
        .click();
      await expect(listSection.getByText(`${origin}/v3/api/patients`, { exact: true }).first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/reference-list-patients-${size.name}.png` });

      // POST /patients shows the request body's example from the document.
      const createSection = operations.locator('[data-section-id="operation/patients-create"]');
      await createSection.getByRole('heading', { name: create.summary }).scrollIntoViewIfNeeded();
      for (const value of [example.first_name, example.last_name, example.email]) {
        await expect(createSection.getByText(`"${String(value)}"`).first()).toBeVisible();
      }
      await page.screenshot({ path: `${SHOTS}/reference-create-patient-${size.name}.png` });

      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await axe(page)).toEqual([]);
      if (size.name === 'phone')
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBeLessThanOrEqual(0);

      // The changelog, from the reference's own link: the newest release's first entry as GET /changelog says.
      await page.getByRole('main').getByRole('link', { name: 'changelog', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Changelog', level: 1 })).toBeVisible();
      const changes = page.getByRole('region', { name: 'Changelog' });
      await expect(changes.getByText(shown(changelog.data[0].changes[0].text), { exact: true })).toBeVisible();
      expect(await axe(page)).toEqual([]);
      expect(refused).toEqual([]);
    });
  });
}
