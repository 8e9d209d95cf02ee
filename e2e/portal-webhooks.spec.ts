/**
 * Webhooks in the portal (issue 25 §3), in Chromium against the built server (its worker on, retries
 * after 0, 1 and 1 s), at 1440×900 and 390×844, as an admin would: the list shows a new endpoint's
 * secret in its entry and its last delivery as soon as it happens; the endpoint's own page edits its
 * event types (a refusal inline), charts its deliveries, and opens a delivered message with its
 * attempts, the headers sent (the signature verifies with the secret) and the response body shown as
 * text; Replay adds an attempt. A failing endpoint's messages are filtered by type and status in the
 * address (a reload, Back and Forward keep them) and Recover says how many it will send before it does.
 * axe finds nothing serious or critical on each page and state, and nothing scrolls sideways on the phone.
 * Screenshots go to /tmp/notes/shots/.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { portalNav } from './support/nav';
import { Webhook } from 'standardwebhooks';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';
import { axe, sideways } from './support/axe';

const password = 'e2e password that is long enough';
/** What the receiver answers: HTML, which the portal must show as text. */
const ANSWER = '<b>received</b> by the test receiver';

const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
/** Paths under /fail answer 500; the others 200 with ANSWER. */
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.statusCode = req.url?.startsWith('/fail') ? 500 : 200;
    res.end(res.statusCode === 200 ? ANSWER : 'down for maintenance');
  });
});
let receiverBase = '';
test.beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

/** A clinic of its own with an admin, signed in on the webhooks page; its origin. */
async function signedIn(page: Page, port: string) {
  const clinic = `hooks${randomBytes(3).toString('hex')}`;
  const admin = `admin@${clinic}.test`;
  cli([
    'account',
    'create',
    '--clinic',
    clinic,
    '--region',
    'neptune',
    '--name',
    'Hooks Physio',
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
      admin,
      '--name',
      'Ada Admin',
      '--role',
      'admin',
      '--password-stdin',
    ],
    password,
  );
  const origin = `http://${clinic}.neptune.localhost:${port}`;
  await page.goto(`${origin}/developers/sign-in`);
  await page.getByLabel('Email').fill(admin);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await (await portalNav(page)).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  return { clinic, origin };
}

/** A patient created over REST with a new key (a change every endpoint hears of). */
async function createPatient(page: Page, clinic: string, origin: string, name: string) {
  const key = cli([
    'key',
    'create',
    '--clinic',
    clinic,
    '--region',
    'neptune',
    '--name',
    name,
    '--access',
    'read_write',
  ]).trim();
  const res = await page.request.fetch(`http://127.0.0.1:${new URL(origin).port}/v3/api/patients`, {
    method: 'POST',
    headers: { host: new URL(origin).host, authorization: `Bearer ${key}` },
    data: { first_name: name, last_name: 'Patient' },
  });
  expect(res.status()).toBe(201);
}

/** Adds an endpoint on the list page; its signing secret, read from its entry. */
async function addEndpoint(page: Page, url: string) {
  await expect(page.getByRole('heading', { name: 'Add an endpoint' })).toBeVisible();
  // The e2e server allows loopback receivers (WEBHOOKS_ALLOW_PRIVATE): the hint says so, not "https only".
  await expect(page.getByText(/^http or https, loopback and private addresses allowed here/)).toBeVisible();
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = page
    .getByRole('listitem')
    .filter({ hasText: url })
    .getByRole('textbox', { name: `Signing secret for ${url}` });
  await expect(secret).toHaveValue(/^whsec_/);
  return secret.inputValue();
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    const check = async (page: Page, name: string) => {
      await page.screenshot({ path: `/tmp/notes/shots/webhooks-${name}-${size.name}.png`, fullPage: true });
      expect(await axe(page), name).toEqual([]);
      if (size.name === 'phone') expect(await sideways(page), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
    };

    test('list → endpoint page: edit event types, a delivered message with its attempts, headers and response body, replayed', async ({
      page,
    }, info) => {
      test.setTimeout(90_000);
      const { clinic, origin } = await signedIn(page, new URL(String(info.project.use.baseURL)).port);
      await expect(page.getByText('No endpoints yet')).toBeVisible();
      const url = `${receiverBase}/clinic-events/${size.name}/${clinic}?note=a-long-query-to-wrap-on-a-phone`;
      const secret = await addEndpoint(page, url);
      const entry = page.getByRole('listitem').filter({ hasText: url });
      await expect(entry).toContainText('No delivery attempts yet');

      // The entry's last delivery follows the attempts, with no reload.
      await createPatient(page, clinic, origin, 'Hook');
      await expect(entry.getByText('Delivered', { exact: true })).toBeVisible({ timeout: 15_000 });
      await expect(entry).toContainText('HTTP 200');
      await check(page, 'list');

      await entry.getByRole('link', { name: url }).click();
      await expect(page.getByRole('heading', { name: url, level: 1 })).toBeVisible();
      await expect(
        page.getByText('Last 24 hours: 1 delivery attempt, 1 succeeded and 0 failed (100% success).'),
      ).toBeVisible();
      await expect(page.getByRole('img', { name: /1 succeeded and 0 failed/ })).toBeVisible();
      await expect(page.getByRole('link', { name: 'event types' })).toHaveAttribute(
        'href',
        '/developers/webhooks/events',
      );
      await check(page, 'endpoint');
      // The period is in the address too; the chart's numbers as a table, for those who do not see it.
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      await expect(page).toHaveURL(/[?&]range=7d/);
      await expect(
        page.getByText('Last 7 days: 1 delivery attempt, 1 succeeded and 0 failed (100% success).'),
      ).toBeVisible();
      await page.getByText('Show as a table').click();
      const perDay = page.getByRole('table', { name: /Delivery attempts per day/ });
      await expect(perDay.getByRole('row')).toHaveCount(8);
      await check(page, 'endpoint-7-days-table');
      await page.goBack();
      await expect(page.getByRole('button', { name: 'Last 24 hours' })).toHaveAttribute('aria-pressed', 'true');

      // Event types: none chosen is refused beside the chooser; two chosen are saved.
      const settings = page.getByRole('region', { name: 'Settings' });
      await settings.getByRole('checkbox', { name: 'All event types' }).uncheck();
      await settings.getByRole('button', { name: 'Save changes' }).click();
      await expect(settings.getByRole('alert')).toHaveText(/at least one event type/i);
      await check(page, 'endpoint-event-types-refused');
      // Grouped by resource, with a search and a box per group (ticked, then unticked: nothing of it stays).
      const find = settings.getByRole('searchbox', { name: 'Find an event type' });
      await find.fill('no such type');
      await expect(settings.getByText('No event type matches “no such type”.')).toBeVisible();
      await find.fill('appointments');
      const group = settings.getByRole('group', { name: 'appointments' });
      await expect(settings.getByRole('group', { name: 'patients' })).toHaveCount(0);
      await group.getByRole('checkbox', { name: 'Every appointments event that fires' }).check();
      await expect(group.getByRole('checkbox', { name: 'appointments.created', exact: true })).toBeChecked();
      await group.getByRole('checkbox', { name: 'Every appointments event that fires' }).uncheck();
      await expect(group.getByRole('checkbox', { name: 'appointments.created', exact: true })).not.toBeChecked();
      await find.fill('');
      await settings.getByRole('checkbox', { name: 'patients.created', exact: true }).check();
      await settings.getByRole('checkbox', { name: 'patients.updated', exact: true }).check();
      await settings.getByRole('button', { name: 'Save changes' }).click();
      await expect(settings.getByText('Saved.')).toBeVisible();
      await expect(page.getByText('patients.created, patients.updated', { exact: true })).toBeVisible();
      await page.reload();
      await expect(page.getByText('patients.created, patients.updated', { exact: true })).toBeVisible();

      // The delivered message: payload, the attempt, the headers sent and the receiver's answer as text.
      await page.getByRole('link', { name: 'patients.created' }).click();
      await expect(page.getByRole('heading', { name: 'patients.created', level: 1 })).toBeVisible();
      await expect(page.getByText('Delivered', { exact: true })).toBeVisible();
      const delivery = received.find((r) => r.path.startsWith(`/clinic-events/${size.name}/${clinic}`))!;
      await expect(page.getByRole('region', { name: 'Payload' })).toContainText(`"type": "patients.created"`);
      const attempt = page.getByRole('article', { name: 'Attempt 1' });
      await expect(attempt).toContainText('HTTP 200');
      await expect(attempt).toContainText(/\d+ ms/);
      const header = (name: string) => attempt.locator(`dt:text-is("${name}") + dd`).innerText();
      expect(await header('webhook-id')).toBe(delivery.headers['webhook-id']);
      expect(await header('webhook-timestamp')).toBe(delivery.headers['webhook-timestamp']);
      expect(await header('webhook-signature')).toBe(delivery.headers['webhook-signature']);
      // What the page shows verifies the body sent, with the endpoint's secret (which the page never shows).
      new Webhook(secret).verify(delivery.body, {
        'webhook-id': await header('webhook-id'),
        'webhook-timestamp': await header('webhook-timestamp'),
        'webhook-signature': await header('webhook-signature'),
      });
      expect(await page.content()).not.toContain(secret);
      await expect(attempt.getByLabel('Response body of attempt 1')).toHaveText(ANSWER);
      await expect(attempt.locator('b')).toHaveCount(0);
      await check(page, 'message');

      await page.getByRole('button', { name: 'Replay message' }).click();
      await expect(page.getByRole('dialog', { name: 'Replay this message?' })).toBeVisible();
      await check(page, 'message-replay-dialog');
      await page.getByRole('dialog').getByRole('button', { name: 'Replay message' }).click();
      await expect(page.getByRole('article', { name: 'Attempt 2' })).toContainText('replayed by a member', {
        timeout: 15_000,
      });
      expect(received.filter((r) => r.headers['webhook-id'] === delivery.headers['webhook-id'])).toHaveLength(2);
    });

    test('a failing endpoint: messages filtered by type and status in the address (reload, Back, Forward), recover counted before it is sent', async ({
      page,
    }, info) => {
      test.setTimeout(90_000);
      const { clinic, origin } = await signedIn(page, new URL(String(info.project.use.baseURL)).port);
      const url = `${receiverBase}/fail/${size.name}/${clinic}`;
      await addEndpoint(page, url);
      await createPatient(page, clinic, origin, 'Down');
      await createPatient(page, clinic, origin, 'Again');
      await page.getByRole('link', { name: url }).click();
      await expect(page.getByRole('heading', { name: url, level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Send test event' }).click();
      const messages = page.getByRole('region', { name: 'Messages' });
      // Three attempts each (retries after 1 s and 1 s), then failed.
      await expect(messages.locator('tbody').getByText('Failed', { exact: true })).toHaveCount(3, { timeout: 20_000 });

      await messages.getByLabel('Event type').selectOption('patients.created');
      await expect(page).toHaveURL(/[?&]type=patients\.created/);
      await expect(messages.getByRole('link', { name: 'patients.created' })).toHaveCount(2);
      await expect(messages.getByRole('link', { name: 'webhook.test' })).toHaveCount(0);
      await messages.getByLabel('Status').selectOption('failed');
      await expect(page).toHaveURL(/[?&]status=failed/);
      await expect(messages.getByRole('link', { name: 'patients.created' })).toHaveCount(2);
      await check(page, 'endpoint-filtered');

      await page.reload();
      await expect(messages.getByLabel('Event type')).toHaveValue('patients.created');
      await expect(messages.getByLabel('Status')).toHaveValue('failed');
      await expect(messages.getByRole('link', { name: 'patients.created' })).toHaveCount(2);

      // A message and back: the filters are still there. Back again undoes the last filter; Forward redoes it.
      await messages.getByRole('link', { name: 'patients.created' }).first().click();
      await expect(page.getByRole('article', { name: 'Attempt 3' })).toContainText('HTTP 500');
      await expect(page.getByRole('article', { name: 'Attempt 1' })).toContainText('down for maintenance');
      await page.goBack();
      await expect(messages.getByLabel('Status')).toHaveValue('failed');
      await expect(messages.getByLabel('Event type')).toHaveValue('patients.created');
      await page.goBack();
      await expect(messages.getByLabel('Status')).toHaveValue('');
      await expect(messages.getByLabel('Event type')).toHaveValue('patients.created');
      await page.goForward();
      await expect(messages.getByLabel('Status')).toHaveValue('failed');

      // Recover says how many before the click, and again in the question.
      const recover = page.getByRole('region', { name: 'Recover failed messages' });
      await expect(recover.getByRole('status')).toContainText('3 failed messages since');
      await recover.getByRole('button', { name: 'Replay 3 failed messages' }).click();
      const dialog = page.getByRole('dialog', { name: 'Replay 3 failed messages?' });
      await expect(dialog).toContainText('3 failed messages since');
      await check(page, 'recover-dialog');
      const before = received.filter((r) => r.path === `/fail/${size.name}/${clinic}`).length;
      await dialog.getByRole('button', { name: 'Replay 3 failed messages' }).click();
      await expect(recover.getByRole('status')).toHaveText('3 failed messages queued to be sent again.');
      await expect
        .poll(() => received.filter((r) => r.path === `/fail/${size.name}/${clinic}`).length - before, {
          timeout: 15_000,
        })
        .toBeGreaterThanOrEqual(3);
    });
  });
}
