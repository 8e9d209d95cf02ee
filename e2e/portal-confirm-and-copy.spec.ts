/**
 * Nothing irreversible in one click, and secrets shown right (issue 25 §1, §2, §7), at a desktop and a
 * phone size: each such action asks in a dialog that says what will happen; Escape or Cancel does
 * nothing and gives focus back to the button; key rotation lets the person choose how long the old
 * secret keeps working; a secret appears next to what it belongs to, named, with a Copy that is about
 * the value shown; focus never falls to the page body.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { fromStart, portalNav } from './support/nav';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';

const password = 'e2e password that is long enough';

/** A clinic of its own, with its owner: the origin to visit and the owner's email. */
function clinicFor(port: string) {
  const clinic = `cc${randomBytes(3).toString('hex')}`;
  const owner = `owner@${clinic}.test`;
  cli([
    'account',
    'create',
    '--clinic',
    clinic,
    '--region',
    'neptune',
    '--name',
    'Confirm Physio',
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
  return { origin: `http://${clinic}.neptune.localhost:${port}`, owner, clinic };
}

async function signIn(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/developers/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await fromStart(page, 'API keys');
  // The list has loaded, so the page is hydrated: typing now is not reset.
  await expect(page.getByText('No API keys yet')).toBeVisible();
}

const api = (page: Page, origin: string, key: string) =>
  page.request.fetch(`http://127.0.0.1:${new URL(origin).port}/v3/api/me`, {
    headers: { host: new URL(origin).host, authorization: `Bearer ${key}` },
  });

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('keys: rotate and revoke ask first; the grace is chosen; the secret sits under its key with a Copy about that secret', async ({
      page,
      context,
    }, info) => {
      const { origin, owner } = clinicFor(new URL(String(info.project.use.baseURL)).port);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      await signIn(page, origin, owner);

      await page.getByLabel('Integration name').fill('Booking site');
      await page.getByRole('button', { name: 'Create key' }).click();
      const field = page.getByRole('textbox', { name: 'New secret for Booking site' });
      const first = await field.inputValue();
      const copy = page.getByRole('button', { name: 'Copy new secret for Booking site' });
      await copy.click();
      await expect(copy).toHaveText('Copied');
      expect(await clipboard(page)).toBe(first);

      // Escape cancels: nothing rotated, focus back on Rotate.
      const rotate = page.getByRole('button', { name: 'Rotate Booking site' });
      await rotate.click();
      const dialog = page.getByRole('dialog', { name: 'Rotate Booking site?' });
      await expect(dialog).toContainText(
        'Booking site gets a new secret, shown once. The current secret keeps working for 24 hours',
      );
      await expect(dialog.getByRole('radio', { name: 'For 24 hours' })).toBeChecked();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(rotate).toBeFocused();
      expect(await field.inputValue()).toBe(first);

      // "Stop it now", chosen from the keyboard: the old secret is refused at once and the key is not in a grace.
      await page.keyboard.press('Enter');
      await dialog.getByRole('radio', { name: 'Stop it now' }).check();
      await expect(dialog).toContainText(
        'Anything still using the current secret of Booking site is refused from now on.',
      );
      await dialog.getByRole('button', { name: 'Rotate Booking site' }).click();
      await expect(dialog).toBeHidden();
      await expect(field).not.toHaveValue(first);
      const second = await field.inputValue();
      await expect(field).toBeFocused();
      // A new value: the button no longer claims the clipboard holds it.
      await expect(copy).toHaveText('Copy');
      await expect(page.getByText('The previous secret has stopped working.')).toBeVisible();
      await expect.poll(async () => (await api(page, origin, first)).status(), { timeout: 5_000 }).toBe(401);
      expect((await api(page, origin, second)).status()).toBe(200);
      await expect(page.getByText('Active', { exact: true })).toBeVisible();

      // One hour: the old secret works meanwhile, and the key cannot be rotated again until then.
      await rotate.click();
      await dialog.getByRole('radio', { name: 'For 1 hour' }).check();
      await dialog.getByRole('button', { name: 'Rotate Booking site' }).click();
      await expect(page.getByText(/^Rotating until /)).toBeVisible();
      expect((await api(page, origin, second)).status()).toBe(200);
      await expect(rotate).toBeDisabled();

      // Revoke: Cancel does nothing and focus returns to Revoke.
      const revoke = page.getByRole('button', { name: 'Revoke Booking site' });
      await revoke.click();
      const revoking = page.getByRole('dialog', { name: 'Revoke Booking site?' });
      await expect(revoking).toContainText('Booking site stops working at once, its previous secret too');
      await revoking.getByRole('button', { name: 'Cancel' }).click();
      await expect(revoking).toBeHidden();
      await expect(revoke).toBeFocused();
      await revoke.click();
      await revoking.getByRole('button', { name: 'Revoke Booking site' }).click();
      // The secret goes with the key, and focus goes somewhere useful rather than the page body.
      await expect(field).toHaveCount(0);
      await expect(page.getByLabel('Integration name')).toBeFocused();
      // A revoked key leaves the list (review point 32); it is on record, shown on request.
      await expect(page.getByText('No working keys.')).toBeVisible();
      await page.getByLabel(/^Show revoked and expired keys \(1\)/).check();
      await expect(page.getByText('Revoked', { exact: true })).toBeVisible();
    });

    test('team: a new member gets a set-up link by email; role change, ownership and deactivation ask first', async ({
      page,
      context,
    }, info) => {
      const { origin, owner } = clinicFor(new URL(String(info.project.use.baseURL)).port);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      await signIn(page, origin, owner);
      await (await portalNav(page)).getByRole('link', { name: 'Team' }).click();

      await page.getByLabel('Name', { exact: true }).fill('Ann Lee');
      await page.getByLabel('Email').fill(`ann-${randomBytes(2).toString('hex')}@example.test`);
      await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Practitioner' });
      await page.getByRole('button', { name: 'Add member' }).click();
      // No one but the member ever knows their password: a set-up link went to their inbox.
      await expect(page.getByText(/A link to choose their password was emailed to ann-/)).toBeVisible();
      await expect(page.getByRole('textbox', { name: /^Password for/ })).toHaveCount(0);

      // Arrow keys move through the roles without asking at each step; "Change role" asks once one is
      // chosen. Escape leaves the role and focus where they were.
      const role = page.getByLabel('Role of Ann Lee', { exact: true });
      await role.focus();
      await page.keyboard.press('ArrowUp');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(role).toBeFocused();
      await role.selectOption('admin');
      await page.getByRole('button', { name: 'Change role of Ann Lee' }).click();
      const changing = page.getByRole('dialog', { name: 'Make Ann Lee an admin?' });
      await expect(changing).toContainText(
        'Ann Lee becomes an admin: from their next request they can do what an admin may do in this clinic',
      );
      await page.keyboard.press('Escape');
      await expect(changing).toBeHidden();
      await expect(role).toHaveValue('practitioner');
      await expect(role).toBeFocused();
      await expect(page.getByRole('button', { name: 'Change role of Ann Lee' })).toHaveCount(0);
      await role.selectOption('receptionist');
      await page.getByRole('button', { name: 'Change role of Ann Lee' }).click();
      await page
        .getByRole('dialog', { name: 'Make Ann Lee a receptionist?' })
        .getByRole('button', { name: 'Make Ann Lee a receptionist' })
        .click();
      await expect(role).toHaveValue('receptionist');

      // Handing over ownership says who becomes what; Cancel keeps it.
      const makeOwner = page.getByRole('button', { name: 'Make Ann Lee the owner' });
      await makeOwner.click();
      const handing = page.getByRole('dialog', { name: 'Make Ann Lee the owner?' });
      await expect(handing).toContainText('Ann Lee becomes the owner of this clinic; you become an admin.');
      await handing.getByRole('button', { name: 'Cancel' }).click();
      await expect(makeOwner).toBeFocused();
      await expect(page.getByRole('row', { name: /Olive Owner/ }).getByText('Owner', { exact: true })).toBeVisible();

      // Deactivation asks, then focus lands on Reactivate (the button it replaced).
      await page.getByRole('button', { name: 'Deactivate Ann Lee' }).click();
      const deactivating = page.getByRole('dialog', { name: 'Deactivate Ann Lee?' });
      await expect(deactivating).toContainText(
        'Ann Lee is signed out at once and can no longer sign in to this clinic',
      );
      await deactivating.getByRole('button', { name: 'Deactivate Ann Lee' }).click();
      await expect(page.getByRole('button', { name: 'Reactivate Ann Lee' })).toBeFocused();

      // Where the link went is said for this visit only.
      await (await portalNav(page)).getByRole('link', { name: 'API keys' }).click();
      await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
      await (await portalNav(page)).getByRole('link', { name: 'Team' }).click();
      await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
      await expect(page.getByText(/A link to choose their password was emailed/)).toHaveCount(0);
    });

    test('webhooks: the signing secret shows beside its endpoint (list entry, endpoint page); rotate, disable and delete ask first; focus stays on the page', async ({
      page,
      context,
    }, info) => {
      const { origin, owner } = clinicFor(new URL(String(info.project.use.baseURL)).port);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      await signIn(page, origin, owner);
      await (await portalNav(page)).getByRole('link', { name: 'Webhooks' }).click();

      // Nothing listens there (WEBHOOKS_ALLOW_PRIVATE lets the e2e server accept it); long, to wrap on a phone.
      const url = 'http://127.0.0.1:9/a/rather/long/path/to/the/clinic/events/receiver?account=confirm-physio';
      await expect(page.getByRole('heading', { name: 'Add an endpoint' })).toBeVisible();
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const entry = page.getByRole('listitem').filter({ hasText: url });
      const added = entry.getByRole('textbox', { name: `Signing secret for ${url}` });
      await expect(added).toHaveValue(/^whsec_/);
      const first = await added.inputValue();
      const copyAdded = entry.getByRole('button', { name: `Copy signing secret for ${url}` });
      await copyAdded.click();
      await expect(copyAdded).toHaveText('Copied');
      expect(await clipboard(page)).toBe(first);

      // The endpoint's own page: the secret shows there, named, on request.
      await entry.getByRole('link', { name: url }).click();
      await expect(page.getByRole('heading', { name: url, level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Show signing secret' }).click();
      const secret = page.getByRole('textbox', { name: `Signing secret for ${url}` });
      await expect(secret).toHaveValue(first);
      const copy = page.getByRole('button', { name: `Copy signing secret for ${url}` });

      const rotate = page.getByRole('button', { name: 'Rotate secret' });
      await rotate.click();
      const rotating = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
      await expect(rotating).toContainText('The current secret also signs them for 24 hours');
      await page.keyboard.press('Escape');
      await expect(rotate).toBeFocused();
      await expect(secret).toHaveValue(first);
      await rotate.click();
      await rotating.getByRole('button', { name: 'Rotate secret' }).click();
      await expect(secret).not.toHaveValue(first);
      await expect(secret).toBeFocused();
      await expect(copy).toHaveText('Copy');

      await page.getByRole('button', { name: 'Disable', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Disable this endpoint?' })
        .getByRole('button', { name: 'Disable endpoint' })
        .click();
      await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Enable', exact: true })).toBeFocused();

      const remove = page.getByRole('button', { name: 'Delete endpoint' });
      await remove.click();
      const deleting = page.getByRole('dialog', { name: 'Delete this endpoint?' });
      await expect(deleting).toContainText(
        'its messages and their attempts are deleted with it. This cannot be undone.',
      );
      await deleting.getByRole('button', { name: 'Cancel' }).click();
      await expect(remove).toBeFocused();
      await remove.click();
      await deleting.getByRole('button', { name: 'Delete endpoint' }).click();
      // Back on the list, which says what was deleted and holds focus there.
      const notice = page.getByText(`Deleted the endpoint ${url}.`);
      await expect(notice).toBeVisible();
      await expect(page.getByText('No endpoints yet')).toBeVisible();
      await expect(page.locator(':focus')).toContainText(`Deleted the endpoint ${url}.`);
    });
  });
}
