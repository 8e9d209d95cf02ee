/**
 * What the keys page says before a rotation: the rule next to every Rotate button, and, while a key's
 * previous secret is in its 24-hour grace, a disabled Rotate with the time it can be rotated again
 * (rotating then would end a grace the person was just shown; the server refuses it with 409 too).
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { fromStart } from './support/nav';
import { cli } from './support/clinic';

const clinic = `e2erot${randomBytes(3).toString('hex')}`;
const owner = `owner@${clinic}.test`;
const password = 'e2e password that is long enough';

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
    'E2E Rotation',
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
});

test('a rotating key cannot be rotated again until its previous secret stops working, and the page says so before the click', async ({
  page,
}) => {
  await page.goto(`${origin}/developers`);
  await page.getByLabel('Email').fill(owner);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await fromStart(page, 'API keys');

  await page.getByLabel('Integration name').fill('Twice');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  const rotate = page.getByRole('button', { name: 'Rotate Twice' });
  await expect(rotate).toBeEnabled();
  await expect(rotate).toHaveAccessibleDescription(
    /keeps the current one working for 24 hours; the key can be rotated again once those 24 hours are over/,
  );

  await rotate.click();
  // The grace choice is entered at the chosen option (24 hours), not at the first.
  await expect(
    page.getByRole('dialog', { name: 'Rotate Twice?' }).getByRole('radio', { name: 'For 24 hours' }),
  ).toBeFocused();
  await page.getByRole('dialog', { name: 'Rotate Twice?' }).getByRole('button', { name: 'Rotate Twice' }).click();
  await expect(
    page.getByText(/The previous secret keeps working until .+; the key can be rotated again after then\./),
  ).toBeVisible();
  const until = (await page.getByText(/^Rotating until /).textContent())!.replace('Rotating until ', '');
  await expect(rotate).toBeDisabled();
  await expect(rotate).toHaveAccessibleDescription(
    `Can be rotated again after ${until}, when the previous secret stops working. Revoke stops both secrets now.`,
  );
  await expect(page.getByRole('button', { name: 'Revoke Twice' })).toBeEnabled();
});
