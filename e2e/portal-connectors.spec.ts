/**
 * AI connectors in the browser: an assistant's authorization request leads a signed-out admin to sign
 * in, then to the consent screen; Allow sends the browser back to the app with a code, Deny with
 * access_denied; the connectors page lists the connection and revokes it.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { portalNav } from './support/nav';
import { axe } from './support/axe';
import { cli, postToClinic } from './support/clinic';

const clinic = `conn${randomBytes(3).toString('hex')}`;
const password = 'e2e password that is long enough';
const admin = `admin@${clinic}.test`;

const callbacks: URL[] = [];
const app = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/callback') callbacks.push(url);
  res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Back in the app</h1>');
});

let origin = '';
let redirectUri = '';
let clientId = '';
test.beforeAll(async ({}, info) => {
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  redirectUri = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
  const port = Number(new URL(String(info.project.use.baseURL)).port);
  origin = `http://${clinic}.neptune.localhost:${port}`;
  cli([
    'account',
    'create',
    '--clinic',
    clinic,
    '--region',
    'neptune',
    '--name',
    'Connect Physio',
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
  const registered = await postToClinic(port, clinic, '/v3/oauth2/register', {
    client_name: 'Test Assistant',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
  });
  clientId = String(registered.client_id);
});
test.afterAll(() => new Promise<void>((r) => app.close(() => r())));

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

function authorizeUrl(state: string) {
  const verifier = randomBytes(32).toString('base64url');
  const u = new URL(`${origin}/v3/oauth2/authorize`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state,
    scope: 'mcp:read',
    resource: `${origin}/v3/api/mcp`,
    code_challenge_method: 'S256',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
  };
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

test('sign in from the authorization request, allow and deny on the consent screen, then revoke on the connectors page', async ({
  page,
}) => {
  await page.goto(authorizeUrl('first'));
  await expect(page.getByRole('heading', { name: 'Sign in to Connect Physio' })).toBeVisible();
  // Before consent, the sign-in page says an app wants to connect (review point 24).
  await expect(page.getByText('An AI app asks to connect to this clinic')).toBeVisible();
  expect(await axe(page), 'sign-in for an app').toEqual([]);
  await page.getByLabel('Email').fill(admin);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByRole('heading', { name: 'Connect Test Assistant to Connect Physio?' })).toBeVisible();
  await expect(page.getByText(/127\.0\.0\.1/).first()).toBeVisible();
  // What it would see, in this member's terms, and a caution: the name is the app's own, never connected here.
  await expect(
    page.getByText(/^As Ada Admin, your role reads patients, appointments and billing: every record/),
  ).toBeVisible();
  await expect(page.getByText('No one in Connect Physio has connected this app before.')).toBeVisible();
  await shot(page, 'consent');
  expect(await axe(page), 'consent').toEqual([]);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back in the app' })).toBeVisible();
  const allowed = callbacks.at(-1)!;
  expect(allowed.searchParams.get('state')).toBe('first');
  expect(allowed.searchParams.get('code')).toMatch(/^clinic_oac_/);
  expect(allowed.searchParams.get('iss')).toBe(origin);

  await page.goto(authorizeUrl('second'));
  await expect(page.getByRole('heading', { name: 'Connect Test Assistant to Connect Physio?' })).toBeVisible();
  await expect(page.getByText(/has connected this app before/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Deny' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Back in the app' })).toBeVisible();
  expect(callbacks.at(-1)!.searchParams.get('error')).toBe('access_denied');
  expect(callbacks.at(-1)!.searchParams.get('state')).toBe('second');

  await page.goto(`${origin}/developers`);
  await (await portalNav(page)).getByRole('link', { name: 'AI connectors' }).click();
  await expect(page.getByRole('heading', { name: 'AI connectors', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'MCP server address' })).toHaveValue(`${origin}/v3/api/mcp`);
  await expect(page.getByRole('cell', { name: /^Test Assistant clinic_oc_/ })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Ada Admin' })).toBeVisible();
  await shot(page, 'connectors');
  // Revoking asks first, in the clinic's words; Escape leaves the connection and focus where they were.
  const revoke = page.getByRole('button', { name: 'Revoke Test Assistant' });
  await revoke.click();
  const dialog = page.getByRole('dialog', { name: 'Revoke Test Assistant?' });
  await expect(dialog).toContainText(
    'Test Assistant, connected by Ada Admin, loses its access to this clinic at once.',
  );
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/portal-shots/connectors-revoke-dialog-desktop.png', fullPage: true });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
  await revoke.click();
  await dialog.getByRole('button', { name: 'Revoke Test Assistant' }).click();
  await expect(page.getByText('No AI app is connected.')).toBeVisible();
  // The row is gone: focus goes to the address to connect again, not to the page body.
  await expect(page.getByRole('textbox', { name: 'MCP server address' })).toBeFocused();
});
