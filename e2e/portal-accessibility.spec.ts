/**
 * Sign-in, the keys, team, webhooks and connectors pages and their confirmation dialogs, at 1440×900 and 390×844:
 * axe finds nothing serious or critical, and nothing scrolls sideways on the phone. Screenshots of each
 * page and dialog go to /tmp/portal-shots/ to be looked at.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { fromStart, portalNav } from './support/nav';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';
import { axe, sideways } from './support/axe';

const password = 'e2e password that is long enough';

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('keys, team, webhooks, connectors and their dialogs: no serious or critical axe finding, no sideways scroll', async ({
      page,
    }, info) => {
      test.setTimeout(90_000);
      const clinic = `axe${randomBytes(3).toString('hex')}`;
      const owner = `owner@${clinic}.test`;
      cli([
        'account',
        'create',
        '--clinic',
        clinic,
        '--region',
        'neptune',
        '--name',
        'Axe Physio',
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
          owner,
          '--name',
          'Olive Owner',
          '--role',
          'owner',
          '--password-stdin',
        ],
        password,
      );
      cli(
        [
          'user',
          'create',
          '--clinic',
          clinic,
          '--region',
          'neptune',
          '--email',
          `ann@${clinic}.test`,
          '--name',
          'Ann Lee',
          '--role',
          'practitioner',
          '--password-stdin',
        ],
        password,
      );
      const origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;

      const check = async (name: string) => {
        await page.screenshot({ path: `/tmp/portal-shots/${name}-${size.name}.png`, fullPage: true });
        expect(await axe(page), name).toEqual([]);
        if (size.name === 'phone') expect(await sideways(page), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
      };
      const dialogState = async (opener: string, dialog: string, name: string) => {
        await page.getByRole('button', { name: opener }).first().click();
        await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
        await check(name);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
      };

      await page.goto(`${origin}/developers/sign-in`);
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      await check('sign-in');
      await page.getByLabel('Email').fill(owner);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await fromStart(page, 'API keys');
      // The list has loaded, so the page is hydrated: typing now is not reset.
      await expect(page.getByText('No API keys yet')).toBeVisible();
      await page.getByLabel('Integration name').fill('Booking website for the Harbour Street practice');
      await page.getByRole('button', { name: 'Create key' }).click();
      await expect(page.getByRole('textbox', { name: /^New secret for/ })).toBeVisible();
      await check('keys');
      await dialogState(
        'Rotate Booking website',
        'Rotate Booking website for the Harbour Street practice?',
        'keys-rotate-dialog',
      );
      await dialogState(
        'Revoke Booking website',
        'Revoke Booking website for the Harbour Street practice?',
        'keys-revoke-dialog',
      );

      await (await portalNav(page)).getByRole('link', { name: 'Team' }).click();
      await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
      await check('team');
      await dialogState('Make Ann Lee the owner', 'Make Ann Lee the owner?', 'team-owner-dialog');
      await dialogState('Deactivate Ann Lee', 'Deactivate Ann Lee?', 'team-deactivate-dialog');

      await (await portalNav(page)).getByRole('link', { name: 'Webhooks' }).click();
      // Nothing listens there (WEBHOOKS_ALLOW_PRIVATE lets the e2e server accept it): the test event fails, which is a state to check too.
      const url = 'http://127.0.0.1:9/a/rather/long/path/that/does/not/fit/on/a/phone/clinic-events?account=axe-physio';
      await expect(page.getByRole('heading', { name: 'Add an endpoint' })).toBeVisible();
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByRole('checkbox', { name: 'All event types' }).uncheck();
      await page.getByRole('checkbox', { name: 'patients.created', exact: true }).check();
      await check('webhooks-event-types');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(page.getByRole('textbox', { name: `Signing secret for ${url}` })).toBeVisible();
      await check('webhooks');
      // The endpoint's own page (e2e/portal-webhooks.spec.ts checks its messages and states).
      await page.getByRole('link', { name: url }).click();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(page.getByRole('link', { name: 'webhook.test' })).toBeVisible({ timeout: 15_000 });
      await check('webhook-endpoint');
      await dialogState('Rotate secret', 'Rotate the signing secret?', 'webhooks-rotate-dialog');
      await dialogState('Disable', 'Disable this endpoint?', 'webhooks-disable-dialog');
      await dialogState('Delete endpoint', 'Delete this endpoint?', 'webhooks-delete-dialog');

      await (await portalNav(page)).getByRole('link', { name: 'AI connectors' }).click();
      await expect(page.getByRole('textbox', { name: 'MCP server address' })).toHaveValue(`${origin}/v3/api/mcp`);
      await check('connectors');
    });
  });
}
