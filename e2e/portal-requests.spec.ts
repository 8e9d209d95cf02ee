/**
 * The request log that debugs (issue 25 §4), driven as a developer would at desktop and phone sizes: API
 * calls made with a key are found by their X-Request-Id, opened (method, path with its redacted query,
 * status and error code, duration, key, client address, request id, time), filtered by days and status;
 * the filters live in the address (a reload and Back restore them); typing a path sends one query, not
 * one per key. axe on every state; screenshots to /tmp/notes/shots/.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { cli } from './support/clinic';
import { SIZES } from './support/sizes';
import { axe } from './support/axe';

const clinic = `e2ereq${randomBytes(3).toString('hex')}`;
const password = 'e2e password that is long enough';
const ann = `ann@${clinic}.test`;
const ZONE = 'America/New_York';
const at = ['--clinic', clinic, '--region', 'neptune'];

let origin = '';
let port = 0;
let secret = '';
/** The X-Request-Id of each call made, by name. */
const ids: Record<string, string> = {};

/** A call to the clinic's REST API with the key (Node cannot resolve *.localhost names: the Host header names the clinic). */
function api(method: string, path: string, body?: unknown): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const raw = body === undefined ? undefined : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = {
      host: `${clinic}.neptune.localhost:${port}`,
      authorization: `Bearer ${secret}`,
    };
    if (raw) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(raw) });
    const req = http.request({ host: '127.0.0.1', port, path: `/v3/api${path}`, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['x-request-id']) }));
    });
    req.on('error', reject);
    req.end(raw);
  });
}

test.beforeAll(async ({}, info) => {
  port = Number(new URL(String(info.project.use.baseURL)).port);
  origin = `http://${clinic}.neptune.localhost:${port}`;
  cli(['account', 'create', ...at, '--name', 'E2E Requests', '--timezone', ZONE, '--currency', 'USD']);
  cli(
    ['user', 'create', ...at, '--email', ann, '--name', 'Ann Admin', '--role', 'admin', '--password-stdin'],
    password,
  );
  secret = cli(['key', 'create', ...at, '--name', 'Sync job', '--access', 'read_write']).trim();
  const calls = {
    search: await api('GET', '/patients?last_name=eq:Smith&page_size=5'),
    missing: await api('GET', '/patients/999999'),
    refused: await api('POST', '/patients', { first_name: 'Zelda', last_name: 'Quist', email: 'not an email' }),
    me: await api('GET', '/me'),
  };
  expect(Object.values(calls).map((c) => c.status)).toEqual([200, 404, 422, 200]);
  for (const [name, c] of Object.entries(calls)) ids[name] = c.requestId;
});

const clinicToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
const tomorrow = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function signIn(page: Page) {
  await page.goto(`${origin}/developers/requests`);
  await page.getByLabel('Email').fill(ann);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('heading', { name: 'Request log', level: 1 })).toBeVisible();
}

const table = (page: Page) => page.getByRole('table', { name: 'REST requests, newest first' });
const requestLinks = (page: Page) => table(page).getByRole('link');

/** The log is written in batches (within about five seconds): reload until the calls are in it. */
async function untilLogged(page: Page) {
  await expect(async () => {
    await page.reload();
    await expect(requestLinks(page)).toHaveCount(4, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport, timezoneId: 'Asia/Tokyo' });
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: `/tmp/notes/shots/${name}-${size.name}.png`, fullPage: true });

    test('find a request by its X-Request-Id, open its detail, and come back to the list as it was', async ({
      page,
    }) => {
      await signIn(page);
      await untilLogged(page);
      await expect(page.getByRole('link', { name: 'GET /v3/api/patients?last_name=eq:***&page_size=5' })).toBeVisible();
      await expect(page.getByText(/Smith/)).toHaveCount(0);
      expect(await axe(page), 'list').toEqual([]);
      await shot(page, 'requests');

      await page.getByLabel('Request id').fill(` ${ids.refused} `);
      await expect(requestLinks(page)).toHaveCount(1);
      await expect(page).toHaveURL(new RegExp(`request_id=${ids.refused}`));
      await page.getByRole('link', { name: 'POST /v3/api/patients' }).click();

      await expect(page.getByRole('heading', { name: 'POST /v3/api/patients', level: 1 })).toBeVisible();
      const item = (term: string) =>
        page
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${term}$`) })
          .locator('xpath=following-sibling::dd[1]');
      await expect(item('Method')).toHaveText('POST');
      await expect(item('Path')).toHaveText('/v3/api/patients');
      await expect(item('Status')).toHaveText('422');
      await expect(item('Error')).toContainText('validation_failed');
      await expect(item('Duration')).toHaveText(/^\d+ ms$/);
      await expect(item('API key')).toHaveText('Sync job');
      await expect(item('Client address')).toHaveText(/127\.0\.0\.1/);
      await expect(item('X-Request-Id')).toContainText(ids.refused);
      await expect(item('Time').locator('time')).toHaveAttribute('title', new RegExp(`${ZONE.replace('/', '\\/')}$`));
      // Nothing the client sent of the patient is shown (no body is kept).
      await expect(page.getByText(/Zelda|Quist/)).toHaveCount(0);
      expect(await axe(page), 'detail').toEqual([]);
      await shot(page, 'request-detail');

      await page.goBack();
      await expect(page.getByLabel('Request id')).toHaveValue(ids.refused);
      await expect(requestLinks(page)).toHaveCount(1);
      await page.getByRole('link', { name: 'POST /v3/api/patients' }).click();
      await page.getByRole('link', { name: '← Request log' }).click();
      await expect(page.getByLabel('Request id')).toHaveValue(ids.refused);
      await expect(requestLinks(page)).toHaveCount(1);
    });

    test('filter by days and status: the address keeps them through a reload; a backwards range is said, not sent', async ({
      page,
    }) => {
      await signIn(page);
      await untilLogged(page);
      const today = clinicToday();
      await page.getByLabel('From').fill(today);
      await page.getByLabel('To (included)').fill(today);
      await page.getByLabel('Status').selectOption({ label: '4xx client error' });
      await expect(requestLinks(page)).toHaveText(['POST /v3/api/patients', 'GET /v3/api/patients/999999']);
      await expect(table(page)).toContainText('validation_failed');
      await expect(table(page)).toContainText('not_found');
      await expect(page).toHaveURL(new RegExp(`\\?from=${today}&to=${today}&status_class=4xx$`));
      expect(await axe(page), 'filtered').toEqual([]);
      await shot(page, 'requests-filtered');

      await page.reload();
      await expect(page.getByLabel('Status')).toHaveValue('4xx');
      await expect(page.getByLabel('From')).toHaveValue(today);
      await expect(requestLinks(page)).toHaveCount(2);

      await page.getByLabel('From').fill(tomorrow(today));
      await expect(page.getByText('The end day is before the start day: pick a later one.')).toBeVisible();
      await page.getByLabel('To (included)').fill(tomorrow(today));
      await expect(page.getByText('No requests match these filters.')).toBeVisible();
      expect(await axe(page), 'empty').toEqual([]);
      await shot(page, 'requests-empty');

      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect(requestLinks(page)).toHaveCount(4);
      await expect(page).toHaveURL(`${origin}/developers/requests`);
    });

    test('typing a path sends one query once typing pauses, not one per key', async ({ page }) => {
      await page.clock.install();
      await signIn(page);
      await untilLogged(page);
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/developers/trpc/requests.list')) sent.push(r.url());
      });
      // The page's timers wait for the test: the keys go in, then the pause passes.
      await page.clock.pauseAt(Date.now() + 60_000);
      await page.getByLabel('Path starts with').pressSequentially('/patients/');
      expect(sent).toHaveLength(0);
      await page.clock.runFor(1000);
      await page.clock.resume();
      await expect(requestLinks(page)).toHaveText(['GET /v3/api/patients/999999']);
      await expect(page).toHaveURL(/\?path=%2Fpatients%2F$/);
      expect(sent).toHaveLength(1);
      expect(decodeURIComponent(sent[0])).toContain('"path":"/patients/"');
    });
  });
}
