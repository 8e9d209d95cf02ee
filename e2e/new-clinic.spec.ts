/**
 * A new clinic, start to finish (issue 26 §4), as its people would do it and without the demo seed:
 * `clinic account create` and `clinic user create --role owner`; the owner signs in, adds a webhook
 * endpoint (a receiver started here) first, so it hears the setup; in Practice adds a location, an
 * appointment type, a billable item (read back over REST), two practitioners and weekly hours; creates an API key in the portal; over REST,
 * GET /availability offers the hours' slots and POST /appointments books one (and one for the other
 * practitioner, so "own calendar" has something to leave out). The owner lets the Practitioner role
 * connect AI apps and narrows it to its own calendar; a practitioner member linked to the first
 * practitioner (`clinic user create --role practitioner --practitioner-id N`) connects an MCP client
 * through the OAuth consent screen and its tools show that practitioner's appointment only. Every
 * setup event and the booking reached the receiver, each verified with standardwebhooks.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { portalNav } from './support/nav';
import { Webhook } from 'standardwebhooks';
import { cli, postToClinic } from './support/clinic';

const password = 'e2e password that is long enough';
const ZONE = 'Europe/London';

type Json = Record<string, unknown>;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const callbacks: URL[] = [];
/** The clinic's webhook receiver (POST /hooks) and the AI app's OAuth redirect (GET /callback). */
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') {
      callbacks.push(url);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Back in the app</h1>');
      return;
    }
    // Only the endpoint's POSTs: the browser on /callback also asks this host for a favicon.
    if (req.method === 'POST' && url.pathname === '/hooks')
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.writeHead(req.method === 'POST' ? 204 : 404).end();
  });
});
let receiverBase = '';
test.beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

/** A request to a clinic host (Node cannot resolve *.localhost names: the Host header names the clinic). */
function call(
  port: number,
  clinic: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: {
          host: `${clinic}.neptune.localhost:${port}`,
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          // The MCP server may answer a JSON-RPC call as a one-message event stream: its data line is the JSON.
          const json =
            /^event:|^data:/m.test(text) && !text.startsWith('{')
              ? text
                  .split('\n')
                  .filter((l) => l.startsWith('data:'))
                  .map((l) => l.slice(5))
                  .join('')
              : text;
          resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(json) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The clinic's calendar day `n` days from now, and its weekday's name. */
function clinicDay(n: number) {
  const at = new Date(Date.now() + n * 86_400_000);
  return {
    date: new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(at),
    weekday: new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, weekday: 'long' }).format(at),
  };
}

test('a new clinic: owner from the CLI, webhook, practice setup, API key, availability and a booking over REST, a practitioner’s MCP connector sees only their calendar, every event signed', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  const port = Number(new URL(String(info.project.use.baseURL)).port);
  const clinic = `newc${randomBytes(3).toString('hex')}`;
  const at = ['--clinic', clinic, '--region', 'neptune'];
  const owner = `owner@${clinic}.test`;
  const member = `bea@${clinic}.test`;
  const origin = `http://${clinic}.neptune.localhost:${port}`;
  cli(['account', 'create', ...at, '--name', 'Harbour Physio', '--timezone', ZONE, '--currency', 'GBP']);
  cli(
    ['user', 'create', ...at, '--email', owner, '--name', 'Olive Owner', '--role', 'owner', '--password-stdin'],
    password,
  );
  const nav = () => portalNav(page);

  // The owner signs in and, before anything else, points a webhook endpoint at the receiver.
  await page.goto(`${origin}/developers/sign-in`);
  await page.getByLabel('Email').fill(owner);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await (await nav()).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByText('No endpoints yet')).toBeVisible();
  const hookUrl = `${receiverBase}/hooks`;
  await page.getByLabel('Endpoint URL').fill(hookUrl);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secretBox = page
    .getByRole('listitem')
    .filter({ hasText: hookUrl })
    .getByRole('textbox', { name: `Signing secret for ${hookUrl}` });
  await expect(secretBox).toHaveValue(/^whsec_/);
  const secret = await secretBox.inputValue();

  // Practice: a location, an appointment type, two practitioners who work there and offer it.
  await (await nav()).getByRole('link', { name: 'Locations' }).click();
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
  await expect(page.getByText('No locations yet')).toBeVisible();
  await page.getByLabel('Name (required)').fill('Harbour Street');
  await page.getByLabel('Country code').fill('GB');
  await page.getByLabel('Town or city').fill('Leeds');
  await page.getByLabel('Patients can book here online').check();
  await page.getByRole('button', { name: 'Add location' }).click();
  await expect(page.getByRole('table', { name: 'Locations' }).getByText('Leeds, GB')).toBeVisible();

  await (await nav()).getByRole('link', { name: 'Appointment types' }).click();
  await expect(page.getByText('No appointment types yet')).toBeVisible();
  await page.getByLabel('Name (required)').fill('Follow-up');
  await page.getByLabel('Length in minutes (required)').fill('30');
  await page.getByRole('button', { name: 'Add appointment type' }).click();
  await expect(page.getByRole('table', { name: 'Appointment types' }).getByText('30 min')).toBeVisible();

  // What the follow-up is invoiced as: a billable item priced in the clinic's currency.
  await (await nav()).getByRole('link', { name: 'Billable items' }).click();
  await expect(page.getByText('No billable items yet')).toBeVisible();
  await page.getByLabel('Name (required)').fill('Follow-up consultation');
  await page.getByLabel('Type (required)').selectOption({ label: 'Service' });
  await page.getByLabel('Price (GBP) (required)').fill('55.50');
  await page.getByRole('button', { name: 'Add billable item' }).click();
  await expect(page.getByRole('table', { name: 'Billable items' }).getByText('£55.50', { exact: true })).toBeVisible();

  await (await nav()).getByRole('link', { name: 'Practitioners' }).click();
  await expect(page.getByText('No practitioners yet')).toBeVisible();
  for (const [first, last] of [
    ['Bea', 'Hart'],
    ['Cal', 'Reed'],
  ]) {
    await page.getByLabel('Title').fill('Dr');
    await page.getByLabel('First name (required)').fill(first);
    await page.getByLabel('Last name (required)').fill(last);
    await page.getByRole('group', { name: 'Works at' }).getByLabel('Harbour Street').check();
    await page.getByRole('group', { name: 'Offers' }).getByLabel('Follow-up').check();
    await page.getByRole('button', { name: 'Add practitioner' }).click();
    await expect(page.getByRole('table', { name: 'Practitioners' }).getByText(`Dr ${first} ${last}`)).toBeVisible();
  }

  // Weekly hours for Dr Bea Hart on the day after tomorrow (its slots are in the future whatever the time now).
  const day = clinicDay(2);
  await (await nav()).getByRole('link', { name: 'Opening hours' }).click();
  await expect(page.getByRole('heading', { name: 'Opening hours', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Practitioner', exact: true }).selectOption({ label: 'Dr Bea Hart' });
  await expect(page.getByRole('heading', { name: 'Weekly hours: Dr Bea Hart at Harbour Street' })).toBeVisible();
  await page.getByLabel(`From (${day.weekday})`).fill('09:00');
  await page.getByLabel(`To (${day.weekday})`).fill('10:30');
  await page.getByRole('button', { name: `Add working hours on ${day.weekday}` }).click();
  await expect(page.getByRole('list', { name: `${day.weekday} hours` }).getByText('09:00–10:30')).toBeVisible();

  // An API key, made in the portal; its secret is shown once.
  await (await nav()).getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Integration name').fill('Booking site');
  await page.getByLabel('Access').selectOption({ label: 'Read & write' });
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.getByRole('textbox', { name: 'New secret for Booking site' }).inputValue();
  expect(key).not.toBe('');
  await page.getByRole('button', { name: 'Done' }).click();

  // Over REST with that key: the slots of those hours, and a booking in the first of them.
  const auth = { authorization: `Bearer ${key}` };
  const get = (path: string) => call(port, clinic, 'GET', `/v3/api${path}`, auth);
  const post = (path: string, body: Json) =>
    call(port, clinic, 'POST', `/v3/api${path}`, { ...auth, 'content-type': 'application/json' }, JSON.stringify(body));
  const [locations, types, practitioners, items] = await Promise.all([
    get('/locations'),
    get('/appointment_types'),
    get('/practitioners'),
    get('/billable_items'),
  ]);
  expect((items.body.data as Json[]).map((i) => [i.name, i.price, i.active])).toEqual([
    ['Follow-up consultation', '55.50', true],
  ]);
  const location = (locations.body.data as Json[])[0];
  const type = (types.body.data as Json[])[0];
  const byName = Object.fromEntries((practitioners.body.data as Json[]).map((p) => [p.first_name, p.id as number]));
  const slots = await get(
    `/availability?location_id=${location.id}&appointment_type_id=${type.id}&from=${day.date}&to=${day.date}`,
  );
  expect(slots.status).toBe(200);
  const offered = slots.body.data as Json[];
  expect(offered.map((s) => [String(s.starts_at).slice(11, 16), s.practitioner_id])).toEqual([
    ['09:00', byName.Bea],
    ['09:30', byName.Bea],
    ['10:00', byName.Bea],
  ]);
  const patient = await post('/patients', { first_name: 'Elizabeth', last_name: 'Chen' });
  expect(patient.status).toBe(201);
  const patientId = (patient.body.data as Json).id;
  const booking = {
    patient_id: patientId,
    location_id: location.id,
    appointment_type_id: type.id,
    starts_at: offered[0].starts_at,
  };
  const booked = await post('/appointments', { ...booking, practitioner_id: byName.Bea });
  expect(booked.status).toBe(201);
  const bookedId = (booked.body.data as Json).id;
  expect(
    await get(
      `/availability?location_id=${location.id}&appointment_type_id=${type.id}&from=${day.date}&to=${day.date}`,
    ).then((r) => (r.body.data as Json[]).map((s) => String(s.starts_at).slice(11, 16))),
  ).toEqual(['09:30', '10:00']);
  // Dr Cal Reed has no hours: his appointment is a deliberate overbooking, there only to be left out below.
  const other = await post('/appointments', { ...booking, practitioner_id: byName.Cal, allow_clash: true });
  expect(other.status).toBe(201);
  expect(((await get('/appointments')).body.data as Json[]).length).toBe(2);

  // The owner lets practitioners connect AI apps and narrows them to their own calendar.
  await (await nav()).getByRole('link', { name: 'Team' }).click();
  const role = page.getByRole('group', { name: 'Practitioner', exact: true });
  await role.getByRole('checkbox', { name: 'Connect AI apps', exact: true }).check();
  await role.getByLabel('Records').selectOption({ label: 'Own calendar only' });
  const saved = page.waitForResponse((r) => r.url().includes('team.updateRole'));
  await role.getByRole('button', { name: 'Save Practitioner' }).click();
  expect((await saved).status()).toBe(200);
  // Said, and still said after the page refreshes its data.
  await expect(role.getByRole('status')).toHaveText('Saved');
  await page.waitForLoadState('networkidle');
  await expect(role.getByRole('status')).toHaveText('Saved');
  // Kept: after a reload the role shows what was saved.
  await page.reload();
  await expect(role.getByRole('checkbox', { name: 'Connect AI apps', exact: true })).toBeChecked();
  await expect(role.getByLabel('Records')).toHaveValue('own_calendar');

  // Dr Bea Hart's own sign-in, linked to her practitioner record.
  cli(
    [
      'user',
      'create',
      ...at,
      '--email',
      member,
      '--name',
      'Bea Hart',
      '--role',
      'practitioner',
      '--practitioner-id',
      String(byName.Bea),
      '--password-stdin',
    ],
    password,
  );

  // Her AI app registers, sends her browser to the consent screen, and exchanges the code for a token.
  const redirectUri = `${receiverBase}/callback`;
  const mcpUrl = `${origin}/v3/api/mcp`;
  const registered = await postToClinic(port, clinic, '/v3/oauth2/register', {
    client_name: 'Bea’s Assistant',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
  });
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${origin}/v3/oauth2/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: String(registered.client_id),
    redirect_uri: redirectUri,
    state: 'bea',
    scope: 'mcp:read',
    resource: mcpUrl,
    code_challenge_method: 'S256',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
  }))
    authorize.searchParams.set(k, v);
  const bea = await (await browser.newContext()).newPage();
  await bea.goto(authorize.toString());
  await bea.getByLabel('Email').fill(member);
  await bea.getByLabel('Password').fill(password);
  await bea.getByRole('button', { name: 'Sign in' }).click();
  await expect(bea.getByRole('heading', { name: 'Connect Bea’s Assistant to Harbour Physio?' })).toBeVisible();
  await bea.getByRole('button', { name: 'Allow' }).click();
  await expect(bea.getByRole('heading', { name: 'Back in the app' })).toBeVisible();
  const code = callbacks.at(-1)!.searchParams.get('code')!;
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: String(registered.client_id),
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    resource: mcpUrl,
  }).toString();
  const token = await call(
    port,
    clinic,
    'POST',
    '/v3/oauth2/token',
    { 'content-type': 'application/x-www-form-urlencoded' },
    form,
  );
  expect(token.status).toBe(200);

  // Through MCP, her appointments are Dr Bea Hart's only; Dr Cal Reed's is outside her scope.
  let rpc = 0;
  const tool = async (name: string, args: Json) => {
    const res = await call(
      port,
      clinic,
      'POST',
      '/v3/api/mcp',
      {
        authorization: `Bearer ${token.body.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args } }),
    );
    expect(res.status).toBe(200);
    const result = res.body.result as { isError?: boolean; structuredContent?: Json; content: { text: string }[] };
    return result.isError
      ? { error: JSON.parse(result.content[0].text).code as string }
      : (result.structuredContent as Json);
  };
  const mine = await tool('query_entities', { entity_type: 'appointments', sort: 'id' });
  expect((mine.data as Json[]).map((a) => [a.id, a.practitioner_id])).toEqual([[bookedId, byName.Bea]]);
  expect(await tool('get_entity', { entity_type: 'appointments', id: (other.body.data as Json).id })).toEqual({
    error: 'permission_denied',
  });

  // The receiver heard the setup and the booking, each message signed with the endpoint's secret and naming the record.
  const hours = await get('/practitioner_availabilities');
  const sorted = (ids: unknown[]) => ids.map(Number).sort((a, b) => a - b);
  const expected = {
    'appointment_types.created': [Number(type.id)],
    'appointments.created': sorted([bookedId, (other.body.data as Json).id]),
    'locations.created': [Number(location.id)],
    'practitioner_availabilities.created': sorted((hours.body.data as Json[]).map((h) => h.id)),
    'practitioners.created': sorted([byName.Bea, byName.Cal]),
  };
  expect(expected['practitioner_availabilities.created']).toHaveLength(1);
  const hook = new Webhook(secret);
  const heard = () => {
    const ids: Record<string, number[]> = {};
    for (const r of received) {
      const message = hook.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      }) as { type: string; data: { id: number } };
      if (message.type in expected) ids[message.type] = sorted([...(ids[message.type] ?? []), message.data.id]);
    }
    return ids;
  };
  await expect.poll(heard, { timeout: 30_000 }).toEqual(expected);
});
