/**
 * A restricted key made in the portal as an owner would for an SMS-reminder integration (scheduling and
 * patients read, nothing else): its row says what it may do, the secret is in view with focus on it,
 * and over REST each other group is refused with 403 forbidden while the allowed reads work. A refused
 * form puts focus on what was refused. At both sizes, axe-clean, no sideways scroll.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { fromStart } from './support/nav';
import { axe, sideways } from './support/axe';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';

const password = 'e2e password that is long enough';

function clinicFor(port: string) {
  const clinic = `e2erk${randomBytes(3).toString('hex')}`;
  const owner = `owner@${clinic}.test`;
  const where = ['--clinic', clinic, '--region', 'neptune'];
  cli(['account', 'create', ...where, '--name', 'E2E Restricted', '--timezone', 'Europe/London', '--currency', 'GBP']);
  cli(['seed', ...where]);
  cli(
    ['user', 'create', ...where, '--email', owner, '--name', 'Olive Owner', '--role', 'owner', '--password-stdin'],
    password,
  );
  return { origin: `http://${clinic}.neptune.localhost:${port}`, owner };
}

const api = (page: Page, origin: string, key: string, path: string) =>
  page.request.fetch(`http://127.0.0.1:${new URL(origin).port}/v3/api${path}`, {
    headers: { host: new URL(origin).host, authorization: `Bearer ${key}` },
  });

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('a restricted key: chosen per group, shown on its row, refused outside its groups over REST', async ({
      page,
    }, info) => {
      const { origin, owner } = clinicFor(new URL(String(info.project.use.baseURL)).port);
      await page.goto(`${origin}/developers/sign-in`);
      await page.getByLabel('Email').fill(owner);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await fromStart(page, 'API keys');
      await expect(page.getByText('No API keys yet')).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'Portal' });
      if (size.name === 'phone') {
        // The links wait behind Menu (they filled 527 of 844 px): the page's content starts near the top.
        const menu = nav.getByRole('button', { name: 'Menu: API keys' });
        await expect(menu).toHaveAttribute('aria-expanded', 'false');
        await expect(nav.getByRole('link', { name: 'Team' })).toBeHidden();
        expect((await page.getByRole('heading', { name: 'API keys', level: 1 }).boundingBox())!.y).toBeLessThan(320);
        await menu.click();
        await expect(nav.getByRole('link', { name: 'Team' })).toBeVisible();
        expect(await axe(page), 'the phone menu open').toEqual([]);
        await menu.click();
        await expect(nav.getByRole('link', { name: 'Team' })).toBeHidden();
      } else {
        await expect(nav.getByRole('button', { name: /^Menu/ })).toBeHidden();
        await expect(nav.getByRole('link', { name: 'Team' })).toBeVisible();
      }

      await page.getByLabel('Integration name').fill('SMS reminders');
      await page.getByLabel('Access').selectOption('restricted');
      const chooser = page.getByRole('group', { name: 'What this key may do' });
      await expect(chooser).toBeVisible();
      // Nothing granted yet: refused inline, and focus goes to the message rather than falling to the page.
      await page.getByRole('button', { name: 'Create key' }).click();
      const refusal = chooser.getByRole('alert');
      await expect(refusal).toContainText('at least one group');
      await expect(refusal).toBeFocused();

      await page.getByRole('radio', { name: 'Scheduling: Read' }).check();
      await page.getByRole('radio', { name: 'Patients and contact details: Read' }).check();
      await page.getByLabel('Allowed networks (optional)').fill('not a network');
      await page.getByRole('button', { name: 'Create key' }).click();
      const networks = page.getByLabel('Allowed networks (optional)');
      await expect(page.getByText(/Not an IP address or CIDR network: not/)).toBeVisible();
      await expect(networks).toBeFocused();
      await networks.fill('127.0.0.1, ::1');
      // Create key comes after every choice of the form, in reading and Tab order.
      await networks.press('Tab');
      await expect(page.getByRole('button', { name: 'Create key' })).toBeFocused();
      expect(await axe(page), 'the form with the chooser open').toEqual([]);
      await page.getByRole('button', { name: 'Create key' }).click();

      const secret = page.getByRole('textbox', { name: 'New secret for SMS reminders' });
      await expect(secret).toBeFocused();
      await expect(secret).toBeInViewport();
      const key = await secret.inputValue();
      const row = page.getByRole('row').filter({ hasText: 'SMS reminders' }).first();
      await expect(row).toContainText('Restricted');
      await expect(row).toContainText('Scheduling: read');
      await expect(row).toContainText('Patients and contact details: read');
      await expect(row).toContainText('Only from 127.0.0.1, ::1');
      expect(await axe(page), 'the keys page with a restricted key').toEqual([]);
      expect(await sideways(page)).toBe(0);

      for (const allowed of ['/appointments?page_size=1', '/patients?page_size=1', '/me'])
        expect((await api(page, origin, key, allowed)).status(), allowed).toBe(200);
      for (const [path, scope] of [
        ['/invoices', 'billing:read'],
        ['/clinical_notes', 'clinical:read'],
        ['/files', 'files:read'],
        ['/locations', 'practice:read'],
      ]) {
        const res = await api(page, origin, key, path);
        expect(res.status(), path).toBe(403);
        expect(await res.json()).toMatchObject({ code: 'forbidden', errors: { permission: [scope] } });
      }
      const me = await (await api(page, origin, key, '/me')).json();
      expect(me.data).toMatchObject({ restricted: true, allowed_ips: ['127.0.0.1', '::1'] });
    });
  });
}
