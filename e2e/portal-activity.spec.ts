/**
 * The activity log as a person reads it: sentences with names (not "API key #4" and raw JSON), times
 * relative with the full time in the clinic's zone on hover and keyboard focus (the browser here is in
 * Tokyo, the clinic in New York), filters by kind, member and days, and a CSV download of the filtered
 * entries. At desktop and phone sizes, with no serious or critical axe finding and no sideways scroll on the
 * phone; screenshots go to /tmp/portal-shots-6/.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axe, sideways } from './support/axe';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';

const clinic = `e2eact${randomBytes(3).toString('hex')}`;
const password = 'e2e password that is long enough';
const ann = `ann@${clinic}.test`;
const ZONE = 'America/New_York';

const at = ['--clinic', clinic, '--region', 'neptune'];

let origin = '';
test.beforeAll(({}, info) => {
  origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;
  cli(['account', 'create', ...at, '--name', 'E2E Activity', '--timezone', ZONE, '--currency', 'USD']);
  cli(
    ['user', 'create', ...at, '--email', ann, '--name', 'Ann Admin', '--role', 'admin', '--password-stdin'],
    password,
  );
  cli(
    [
      'user',
      'create',
      ...at,
      '--email',
      `bo@${clinic}.test`,
      '--name',
      'Bo Other',
      '--role',
      'receptionist',
      '--password-stdin',
    ],
    password,
  );
  cli(['key', 'create', ...at, '--name', 'Sync job', '--access', 'read_only']);
  const [key] = JSON.parse(cli(['key', 'list', ...at])) as { id: number }[];
  cli(['key', 'rotate', ...at, '--key-id', String(key.id)]);
});

/** Today in the clinic's zone, as a date input takes it. */
const clinicToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
const tomorrow = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function signIn(page: Page) {
  await page.goto(`${origin}/developers/activity`);
  await page.getByLabel('Email').fill(ann);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('heading', { name: 'Activity log', level: 1 })).toBeVisible();
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport, timezoneId: 'Asia/Tokyo' });
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: `/tmp/portal-shots-6/${name}-${size.name}.png`, fullPage: true });

    test('entries say who did what by name, and when: how long ago, with the full time in the clinic’s zone on hover and focus', async ({
      page,
    }) => {
      await signIn(page);
      const table = page.getByRole('table', { name: 'Account activity, newest first' });
      const rotated = table.getByRole('row').filter({ hasText: 'Command line rotated the API key “Sync job”' });
      await expect(rotated).toContainText(
        /; the previous secret works until \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} America\/New_York/,
      );
      await expect(
        table
          .getByRole('row')
          .filter({ hasText: 'Command line created the API key “Sync job” (read-only, never expires)' }),
      ).toHaveCount(1);
      await expect(table.getByRole('row').filter({ hasText: 'Command line added Ann Admin' })).toHaveCount(1);
      await expect(table.getByRole('row').filter({ hasText: /^.*Ann Admin signed in from / })).not.toHaveCount(0);
      await expect(table).not.toContainText('API key #');
      await expect(table).not.toContainText('{');
      expect(await axe(page), 'activity log').toEqual([]);
      if (size.name === 'phone')
        expect(await sideways(page), 'the activity log scrolls sideways').toBeLessThanOrEqual(0);

      const time = rotated.locator('time');
      const iso = (await time.getAttribute('datetime'))!;
      const full = `${new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(iso))} ${ZONE}`;
      await expect(time).toHaveAttribute('title', full);
      await expect(time).toHaveText(
        new RegExp(`^(just now|\\d+ min ago), ${full.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      const shown = rotated.getByText(full, { exact: true }).last();
      await expect(shown).toBeHidden();
      // Keyboard: Tab from the last control before the table reaches the newest entry's time, and its full time shows.
      await page.getByRole('button', { name: 'Download CSV' }).focus();
      await page.keyboard.press('Tab');
      const first = table.locator('time').first();
      await expect(first).toBeFocused();
      await expect(first.locator('[aria-hidden="true"]')).toBeVisible();
      await shot(page, 'activity');
      await page.keyboard.press('Tab');
      await expect(first.locator('[aria-hidden="true"]')).toBeHidden();
      await time.hover();
      await expect(shown).toBeVisible();
    });

    test('filters by kind, member and days, and downloads the filtered entries as CSV', async ({ page }) => {
      await signIn(page);
      const table = page.getByRole('table', { name: 'Account activity, newest first' });
      await page.getByLabel('Done by').selectOption({ label: 'Ann Admin' });
      await expect(table.getByRole('row').filter({ hasText: 'command line' })).toHaveCount(0);
      await expect(table.getByRole('row').filter({ hasText: 'Ann Admin signed in from' }).first()).toBeVisible();
      await page.getByLabel('Done by').selectOption({ label: 'Anyone' });

      await page.getByLabel('Show').selectOption({ label: 'API keys' });
      await expect(table.getByRole('row')).toHaveCount(3); // the heading row and two entries
      const today = clinicToday();
      await page.getByLabel('From').fill(today);
      await page.getByLabel('To (included)').fill(today);
      await expect(table.getByRole('row')).toHaveCount(3);
      await page.getByLabel('From').fill(tomorrow(today));
      await expect(page.getByText('The end day is before the start day: pick a later one.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
      await page.getByLabel('To (included)').fill(tomorrow(today));
      await expect(page.getByText('No activity matches these filters.')).toBeVisible();
      await shot(page, 'activity-filtered-empty');

      await page.getByLabel('From').fill(today);
      await page.getByLabel('To (included)').fill(today);
      await expect(table.getByRole('row')).toHaveCount(3);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = readFileSync((await file.path())!, 'utf8')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe(`id,time (UTC),time (${ZONE}),who,kind,action,what`);
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(
        ',command line,api_keys,rotated,"Command line rotated the API key “Sync job”; the previous secret works until',
      );
      expect(lines[2]).toMatch(
        /,command line,api_keys,created,"Command line created the API key “Sync job” \(read-only, never expires\)"$/,
      );
      await expect(page.getByRole('status').filter({ hasText: 'Downloaded 2 entries.' })).toBeVisible();
    });
  });
}
