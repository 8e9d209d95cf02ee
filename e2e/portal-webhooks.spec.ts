/**
 * Webhooks in the portal, in Chromium against the built server (its worker on): an admin adds an endpoint
 * pointing at a local receiver, sends a test event and sees the attempt, creates a patient over REST and
 * sees the delivery arrive (verified with standardwebhooks), then replays it. Then an endpoint chosen
 * for some types (the chooser says which never fire yet) is disabled: a change made meanwhile waits,
 * listed as waiting, and is delivered when the endpoint is enabled again.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { cli } from './support/clinic';
import { Webhook } from 'standardwebhooks';

const clinic = `hooks${randomBytes(3).toString('hex')}`;
const password = 'e2e password that is long enough';
const admin = `admin@${clinic}.test`;

const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.end('ok');
  });
});

let origin = '';
let receiverUrl = '';
test.beforeAll(async ({}, info) => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/clinic-events`;
  origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;
  cli(['account', 'create', '--clinic', clinic, '--region', 'neptune', '--name', 'Hooks Physio', '--timezone', 'Europe/London', '--currency', 'GBP']);
  cli(['user', 'create', '--clinic', clinic, '--region', 'neptune', '--email', admin, '--name', 'Ada Admin', '--role', 'admin', '--password-stdin'], password);
});
test.afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

async function signIn(page: Page) {
  await page.goto(`${origin}/developers/sign-in`);
  await page.getByLabel('Email').fill(admin);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
}

/** A patient created over REST with a new key: the response. */
async function createPatient(page: Page, name: string) {
  const key = cli(['key', 'create', '--clinic', clinic, '--region', 'neptune', '--name', name, '--access', 'read_write']).trim();
  const port = new URL(origin).port;
  return page.request.fetch(`http://127.0.0.1:${port}/v3/api/patients`, { method: 'POST', headers: { host: new URL(origin).host, authorization: `Bearer ${key}` }, data: { first_name: name, last_name: 'Patient' } });
}

test('an admin adds an endpoint, sends a test event, sees a REST change delivered, and replays it', async ({ page }) => {
  await signIn(page);
  await expect(page.getByText('No endpoints yet')).toBeVisible();

  await page.getByLabel('Endpoint URL').fill(receiverUrl);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = await page.getByRole('textbox', { name: `Signing secret for ${receiverUrl}` }).inputValue();
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByRole('heading', { name: receiverUrl })).toBeVisible();

  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByRole('cell', { name: /^webhook\.test/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('cell', { name: /200 in \d+ ms \(test\)/ })).toBeVisible({ timeout: 15_000 });
  await shot(page, 'webhooks-test-event');

  // A change over REST is delivered, signed: the receiver verifies it as an integrator would.
  const created = await createPatient(page, 'Hook');
  expect(created.status()).toBe(201);
  await expect(page.getByRole('cell', { name: /^patients\.created/ })).toBeVisible({ timeout: 15_000 });
  const delivery = received.find((r) => JSON.parse(r.body).type === 'patients.created')!;
  const payload = new Webhook(secret).verify(delivery.body, {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  }) as { data: { entity: string; id: number } };
  expect(payload.data).toEqual({ entity: 'patients', id: (await created.json()).data.id });

  await page.getByRole('button', { name: /^Replay patients\.created/ }).click();
  await expect.poll(() => received.filter((r) => r.headers['webhook-id'] === delivery.headers['webhook-id']).length, { timeout: 15_000 }).toBe(2);
  await shot(page, 'webhooks');
});

test('the chooser says which types never fire yet; a change made while the endpoint is disabled waits and is delivered on enabling', async ({ page }) => {
  await signIn(page);
  const heldUrl = receiverUrl.replace(/\/clinic-events$/, '/held-events');
  await page.getByLabel('Endpoint URL').fill(heldUrl);
  await page.getByRole('checkbox', { name: 'All event types' }).uncheck();
  await expect(page.getByRole('checkbox', { name: 'locations.created (never fires yet)' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'patients.created', exact: true }).check();
  await shot(page, 'webhooks-event-chooser');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const card = page.getByRole('region', { name: heldUrl });
  await expect(card).toBeVisible();

  await card.getByRole('button', { name: 'Disable' }).click();
  await page.getByRole('dialog', { name: 'Disable this endpoint?' }).getByRole('button', { name: 'Disable endpoint' }).click();
  await expect(card.getByText('Disabled', { exact: true })).toBeVisible();
  expect((await createPatient(page, 'Held')).status()).toBe(201);
  await expect(card.getByRole('cell', { name: /^patients\.created/ })).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText('waiting', { exact: true })).toBeVisible();
  await shot(page, 'webhooks-waiting');

  await card.getByRole('button', { name: 'Enable' }).click();
  await expect.poll(() => received.filter((r) => r.path === '/held-events').map((r) => JSON.parse(r.body).type), { timeout: 15_000 }).toEqual(['patients.created']);
  await expect(card.getByText('delivered', { exact: true })).toBeVisible({ timeout: 15_000 });
});
