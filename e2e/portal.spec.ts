import { expect, test } from '@playwright/test';

test('the portal home page renders and links to the OpenAPI document', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Clinic API' })).toBeVisible();
  await page.getByRole('link', { name: 'OpenAPI document' }).click();
  const doc = JSON.parse((await page.locator('body').innerText()).trim());
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toContain('/patients');
});

test('the same server answers the REST API for a clinic host, as JSON', async ({ page, baseURL }) => {
  const port = new URL(baseURL!).port;
  // Chromium resolves *.localhost to loopback, so the seeded demo clinic is reachable by its own host.
  const res = await page.goto(`http://demo.neptune.localhost:${port}/v3/api/ping`);
  expect(res!.status()).toBe(200);
  expect(res!.headers()['x-request-id']).toBeTruthy();
  expect(JSON.parse(await res!.text())).toEqual({ pong: true });
  const me = await page.goto(`http://demo.neptune.localhost:${port}/v3/api/me`);
  expect(me!.status()).toBe(401);
  expect(JSON.parse(await me!.text()).code).toBe('unauthenticated');
  const unknown = await page.goto(`http://nosuch.neptune.localhost:${port}/v3/api/ping`);
  expect(unknown!.status()).toBe(404);
  expect(JSON.parse(await unknown!.text()).code).toBe('not_found');
});
