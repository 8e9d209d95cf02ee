/**
 * Sessions and errors in the portal, as a person meets them: a signed-out deep link comes back to its
 * page after sign-in (and a hostile `next` does not leave the portal), a session that ends while a page
 * is open leads to sign-in and back, a deactivated member hears the same as a wrong password, a server
 * that cannot be reached is said so with a way to retry, and an untrusted consent request says what is
 * wrong and where to go. At desktop and phone sizes; screenshots go to /tmp/portal-shots-6/.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { fromStart } from './support/nav';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';

const clinic = `e2ess${randomBytes(3).toString('hex')}`;
const password = 'e2e password that is long enough';
const owner = `owner@${clinic}.test`;
const leaver = `leaver@${clinic}.test`;

let origin = '';
test.beforeAll(({}, info) => {
  origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;
  cli([
    'account',
    'create',
    '--clinic',
    clinic,
    '--region',
    'neptune',
    '--name',
    'E2E Sessions',
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
      leaver,
      '--name',
      'Lee Leaver',
      '--role',
      'admin',
      '--password-stdin',
    ],
    password,
  );
  cli(['user', 'deactivate', '--clinic', clinic, '--region', 'neptune', '--email', leaver]);
});

async function fillSignIn(page: Page, email = owner, pass = password) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(pass);
  await page.getByLabel('Password').press('Enter');
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: `/tmp/portal-shots-6/${name}-${size.name}.png`, fullPage: true });

    test('a signed-out deep link comes back to its page, query and all, after sign-in', async ({ page }) => {
      await page.goto(`${origin}/developers/team?from=link`);
      await expect(page).toHaveURL(
        `${origin}/developers/sign-in?next=${encodeURIComponent('/developers/team?from=link')}`,
      );
      await expect(page.getByText('Sign in to open the page you asked for.')).toBeVisible();
      await fillSignIn(page);
      await expect(page).toHaveURL(`${origin}/developers/team?from=link`);
      await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
    });

    test('a next that is not a portal page is not followed: signing in stays on this site', async ({ browser }) => {
      for (const hostile of [
        '//evil.example/developers/keys',
        'https://evil.example/developers/keys',
        '/developers/\\evil.example',
        '/\\evil.example/developers/keys',
      ]) {
        // A fresh browser each time: signed out, with nothing of the last attempt still loading.
        const context = await browser.newContext({ viewport: size.viewport });
        const page = await context.newPage();
        await page.goto(`${origin}/developers/sign-in?next=${encodeURIComponent(hostile)}`);
        await fillSignIn(page);
        // The portal's own home instead: for this owner of a clinic not set up yet, the Start page.
        await expect(page).toHaveURL(`${origin}/developers/start`);
        await context.close();
      }
    });

    test('a session that ends while a page is open leads to sign-in, and back to the page after it', async ({
      page,
    }) => {
      await page.goto(`${origin}/developers/activity`);
      await fillSignIn(page);
      await expect(page.getByRole('heading', { name: 'Activity log', level: 1 })).toBeVisible();
      // Signed out in another tab: this page's next call finds no session.
      const other = await page.context().newPage();
      await other.goto(`${origin}/developers/keys`);
      await other.getByRole('button', { name: 'Sign out' }).click();
      await expect(other).toHaveURL(/\/developers\/sign-in/);
      await other.close();

      await page.getByLabel('Show').selectOption({ label: 'Sign-ins' });
      await expect(page).toHaveURL(
        `${origin}/developers/sign-in?next=${encodeURIComponent('/developers/activity')}&ended=1`,
      );
      await expect(page.getByRole('status')).toHaveText(
        'Your session ended (it expired, or you were signed out in another tab). Sign in again to go back to the page you were on.',
      );
      await shot(page, 'sign-in-session-ended');
      await fillSignIn(page);
      await expect(page).toHaveURL(`${origin}/developers/activity`);
      await expect(page.getByRole('heading', { name: 'Activity log', level: 1 })).toBeVisible();
    });

    test('a deactivated member hears the same as a wrong password', async ({ page }) => {
      await page.goto(`${origin}/developers/sign-in`);
      await fillSignIn(page, leaver);
      await expect(page.getByRole('main').getByRole('alert')).toHaveText('Email or password is wrong');
      await fillSignIn(page, owner, 'not the password at all');
      await expect(page.getByRole('main').getByRole('alert')).toHaveText('Email or password is wrong');
    });

    test('a server that cannot be reached is said so, and signing in again once it is back works', async ({ page }) => {
      await page.goto(`${origin}/developers/sign-in`);
      await page.route('**/developers/trpc/**', (route) => route.abort('internetdisconnected'));
      await fillSignIn(page);
      await expect(page.getByRole('main').getByRole('alert')).toHaveText(
        'Could not reach the server. Check your internet connection, then try again.',
      );
      await shot(page, 'sign-in-unreachable');
      await page.unroute('**/developers/trpc/**');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await fromStart(page, 'API keys');
    });

    test('a page whose data cannot be loaded says the server could not be reached, and Try again loads it', async ({
      page,
    }) => {
      await page.goto(`${origin}/developers/activity`);
      await fillSignIn(page);
      await expect(page.getByRole('heading', { name: 'Activity log', level: 1 })).toBeVisible();
      await page.route('**/developers/trpc/activity.list**', (route) => route.abort('internetdisconnected'));
      await page.reload();
      await expect(page.getByRole('main').getByRole('alert')).toContainText(
        'Could not reach the server. Check your internet connection, then try again.',
      );
      await expect(page.getByText('Failed to fetch')).toHaveCount(0);
      await shot(page, 'activity-unreachable');
      await page.unroute('**/developers/trpc/activity.list**');
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect(page.getByRole('table', { name: /Account activity/ })).toBeVisible();
    });

    test('an untrusted consent request says what is wrong and where to go, with nothing to retry', async ({ page }) => {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: 'nosuch-app',
        redirect_uri: 'https://app.example/callback',
        scope: 'mcp:read',
        state: 's',
      });
      await page.goto(`${origin}/developers/connect?${query}`);
      await expect(page).toHaveURL(/\/developers\/sign-in\?next=%2Fdevelopers%2Fconnect%3F/);
      await fillSignIn(page);
      await expect(page.getByRole('heading', { name: 'This connection request cannot be used' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('alert')).toHaveText(
        'The app sent a request this clinic cannot accept: this app is not registered with this clinic. Nothing was connected.',
      );
      await expect(page.getByRole('main').getByRole('alert')).toContainText('Nothing was connected.');
      await expect(page.getByText('Go back to the app that sent you here')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
      await shot(page, 'consent-invalid');
      await page.getByRole('link', { name: 'AI connectors' }).click();
      await expect(page.getByRole('heading', { name: 'AI connectors', level: 1 })).toBeVisible();
    });
  });
}
