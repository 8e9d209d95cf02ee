/**
 * No framing, and a CSP that the portal lives with: a page on another clinic's host (same site) that
 * frames the signed-in consent screen gets a blank frame; portal pages carry a CSP whose script nonce
 * is fresh per response and on every script; signing in and using the portal reports no violation.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { portalNav } from './support/nav';
import { cli, postToClinic } from './support/clinic';

const clinic = `csp${randomBytes(3).toString('hex')}`;
const attacker = `evil${randomBytes(3).toString('hex')}`;
const password = 'e2e password that is long enough';
const admin = `admin@${clinic}.test`;
// Never reached: no test here answers the consent screen.
const redirectUri = 'http://127.0.0.1:9/callback';

// The attacker's web server: the page that frames the consent screen, and a harmless page.
let attackerPage = '';
const attackerServer = http.createServer((req, res) => {
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end(req.url === '/attack' ? attackerPage : '<p>A harmless page</p>');
});

let port = 0;
let attackerPort = 0;
let origin = '';
let clientId = '';
test.beforeAll(async ({}, info) => {
  await new Promise<void>((r) => attackerServer.listen(0, '127.0.0.1', r));
  attackerPort = (attackerServer.address() as AddressInfo).port;
  port = Number(new URL(String(info.project.use.baseURL)).port);
  origin = `http://${clinic}.neptune.localhost:${port}`;
  for (const [name, label] of [
    [clinic, 'Framed Physio'],
    [attacker, 'Evil Physio'],
  ]) {
    cli([
      'account',
      'create',
      '--clinic',
      name,
      '--region',
      'neptune',
      '--name',
      label,
      '--timezone',
      'Europe/London',
      '--currency',
      'GBP',
    ]);
  }
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
test.afterAll(() => new Promise<void>((r) => attackerServer.close(() => r())));

/** The consent screen's address, as /v3/oauth2/authorize sends the browser there. */
function consentUrl() {
  const verifier = randomBytes(32).toString('base64url');
  const u = new URL(`${origin}/developers/connect`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state: 'framed',
    scope: 'mcp:read',
    resource: `${origin}/v3/api/mcp`,
    code_challenge_method: 'S256',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
  };
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

/** Every console message naming a Content Security Policy (Chromium reports each violation so). */
function cspReports(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (/Content Security Policy|X-Frame-Options/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

async function signIn(page: Page) {
  await page.getByLabel('Email').fill(admin);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a portal page: nonce-based CSP on every script (fresh per response), no framing, nosniff, no referrer', async ({
  page,
}) => {
  const res = (await page.goto(`${origin}/developers/sign-in`))!;
  expect(res.status()).toBe(200);
  const headers = res.headers();
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  // Plain http here: HSTS only over https (server/test/security-headers.test.ts covers that).
  expect(headers['strict-transport-security']).toBeUndefined();
  const csp = headers['content-security-policy'];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
  expect(directives).toEqual({
    'default-src': "'self'",
    'script-src': `'self' 'nonce-${nonce}' 'strict-dynamic'`,
    'style-src': "'self' 'unsafe-inline'",
    'img-src': "'self' data:",
    'font-src': "'self'",
    'connect-src': "'self'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
    'base-uri': "'none'",
    'object-src': "'none'",
  });

  // Every script Next wrote into the page carries this response's nonce.
  const html = await res.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(3);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

  // A new response, a new nonce (the page is rendered per request, never served prebuilt).
  const again = (await page.goto(`${origin}/developers/sign-in`))!;
  expect(/'nonce-([^']+)'/.exec(again.headers()['content-security-policy'])?.[1]).not.toBe(nonce);

  // The home page and the not-found page are Next's too: same policy, nonce included.
  for (const path of ['/', '/no-such-page']) {
    const other = (await page.goto(`${origin}${path}`))!;
    const otherNonce = /'nonce-([^']+)'/.exec(other.headers()['content-security-policy'])?.[1];
    expect(otherNonce, path).toBeTruthy();
    for (const tag of (await other.text()).match(/<script\b[^>]*>/g) ?? [])
      expect(tag, path).toContain(`nonce="${otherNonce}"`);
  }
});

test('signing in and using the portal under its CSP: pages hydrate and nothing is refused', async ({ page }) => {
  const reports = cspReports(page);
  await page.goto(consentUrl());
  await expect(page.getByRole('heading', { name: 'Sign in to Framed Physio' })).toBeVisible();
  await signIn(page);
  // Back on the consent screen: its data came from a client-side query, so its scripts ran.
  await expect(page.getByRole('heading', { name: 'Connect Test Assistant to Framed Physio?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Allow' })).toBeEnabled();

  await page.goto(`${origin}/developers`);
  for (const [link, heading] of [
    ['API keys', 'API keys'],
    ['AI connectors', 'AI connectors'],
    ['Team', 'Team'],
    ['API reference', 'API reference'],
    ['Changelog', 'Changelog'],
  ]) {
    await (await portalNav(page)).getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }
  expect(reports).toEqual([]);
});

test('a page on another clinic host cannot frame the signed-in consent screen', async ({ page }) => {
  await page.goto(`${origin}/developers/sign-in`);
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
  // Signed in, the consent screen renders with its Allow button when opened directly.
  await page.goto(consentUrl());
  await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();

  // The attacker's page, on another clinic's host (same site: *.neptune.localhost, which Chromium
  // resolves to loopback) served by the attacker's own server; it frames the consent screen, and, as
  // a control, a harmless page of another origin that nothing stops from being framed.
  const attack = `http://${attacker}.neptune.localhost:${attackerPort}/attack`;
  const control = `http://${clinic}.neptune.localhost:${attackerPort}/harmless`;
  attackerPage = `<!doctype html><h1>Win a prize</h1><iframe id="victim" src="${consentUrl()}" width="800" height="600"></iframe><iframe id="control" src="${control}"></iframe>`;
  const describeCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/developers/trpc/connectors.describe')) describeCalls.push(r.url());
  });
  const refused = page.waitForEvent('console', {
    predicate: (m) => m.text().includes("frame-ancestors 'none'"),
    timeout: 10_000,
  });
  await page.goto(attack);
  await expect(page.getByRole('heading', { name: 'Win a prize' })).toBeVisible();
  // Chromium reports the refusal: "Framing '…' violates … "frame-ancestors 'none'". The request has been blocked."
  expect((await refused).text()).toContain(origin.replace(/:\d+$/, ''));
  await expect(page.frameLocator('#control').getByText('A harmless page')).toBeVisible();

  const frame = await (await page.$('#victim'))!.contentFrame();
  expect(frame).toBeTruthy();
  await frame!.waitForLoadState();
  // Chromium shows its error page in place of the refused document: none of the consent screen runs.
  expect(frame!.url()).toBe('chrome-error://chromewebdata/');
  await expect(frame!.getByRole('button', { name: 'Allow' })).toHaveCount(0);
  await expect(frame!.getByText('Connect Test Assistant')).toHaveCount(0);
  // Give a would-be frame time to hydrate: its consent query never leaves the browser.
  await page.waitForTimeout(1000);
  expect(describeCalls).toEqual([]);
});
