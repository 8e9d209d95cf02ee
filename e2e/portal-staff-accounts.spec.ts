/**
 * A staff account's lifecycle as people meet it (issue 36): a member changes their password and their
 * other session ends; an admin starts a reset and the member chooses a new password from the emailed
 * link (read back from the SMTP server the run started); an authenticator app set up with its QR key,
 * then sign-in with a code and with a recovery code; the clinic's rule leading a member to set one up;
 * a session ended from Your sessions;
 * a passkey added and used through Chromium's virtual authenticator (CDP WebAuthn). axe 0 serious on
 * every new page, at desktop and phone sizes.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { portalNav } from './support/nav';
import * as OTPAuth from 'otpauth';
import { axe, sideways } from './support/axe';
import { cli } from './support/clinic';
import { linkIn, mailTo } from './support/mail';
import { SIZES } from './support/sizes';

const clinic = `e2est${randomBytes(3).toString('hex')}`;
const password = 'e2e password that is long enough';
const newPassword = 'a brand new passphrase for me';
const at = ['--clinic', clinic, '--region', 'neptune'];
let origin = '';
let n = 0;

/** A new member of the clinic with the e2e password. */
function member(role: string) {
  const email = `m${n++}-${randomBytes(2).toString('hex')}@${clinic}.test`;
  cli(
    ['user', 'create', ...at, '--email', email, '--name', `Member ${n}`, '--role', role, '--password-stdin'],
    password,
  );
  return email;
}

test.beforeAll(({}, info) => {
  origin = `http://${clinic}.neptune.localhost:${new URL(String(info.project.use.baseURL)).port}`;
  cli(['account', 'create', ...at, '--name', 'E2E Staff', '--timezone', 'Europe/London', '--currency', 'GBP']);
});

async function signIn(page: Page, email: string, pass = password) {
  await page.goto(`${origin}/developers/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(pass);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/developers\/sign-in/);
}

const openAccount = async (page: Page) => {
  await (await portalNav(page)).getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
};

/** The code an authenticator app shows now for the key the page gave. */
const codeFor = (key: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30 }).generate();

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });
    const clean = async (page: Page, what: string) => {
      expect(await axe(page), what).toEqual([]);
      expect(await sideways(page), `${what} scrolls sideways`).toBeLessThanOrEqual(0);
    };

    test("an email typed before the page's script runs is kept once it runs (a slow connection)", async ({ page }) => {
      const email = member('practitioner');
      // The page's scripts are held until the email is typed, as on a slow connection.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/_next/static/**', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${origin}/developers/sign-in`, { waitUntil: 'commit' });
      await page.getByLabel('Email').fill(email);
      release();
      // React has taken the form over (its fiber is on the input): typing now re-renders it, which set
      // the email back to the empty state before.
      await page.waitForFunction(() =>
        Object.keys(document.getElementById('email') ?? {}).some((k) => k.startsWith('__reactFiber')),
      );
      await page.getByLabel('Password').fill(password);
      await expect(page.getByLabel('Email')).toHaveValue(email);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
    });

    test('a member changes their password: the other session ends, the new password works', async ({
      page,
      browser,
    }) => {
      const email = member('receptionist');
      const elsewhere: BrowserContext = await browser.newContext({ viewport: size.viewport });
      const other = await elsewhere.newPage();
      await signIn(other, email);
      await expect(other.getByRole('navigation', { name: 'Portal' })).toBeVisible();

      await signIn(page, email);
      await openAccount(page);
      await expect(page.getByRole('table', { name: 'Where you are signed in' }).getByRole('row')).toHaveCount(3);
      await clean(page, 'your account');
      await page.getByLabel('Current password').fill('not my password at all');
      await page.getByLabel(/^New password/).fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByText('is not your current password')).toBeVisible();
      await page.getByLabel('Current password').fill(password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toHaveText(
        'Password changed. 1 other session(s) ended.',
      );
      await other.reload();
      await expect(other).toHaveURL(/\/developers\/sign-in/);
      await signIn(other, email, newPassword);
      await expect(other.getByRole('navigation', { name: 'Portal' })).toBeVisible();

      // Your sessions: the other device is listed; ending it (after a confirmation) signs it out.
      await page.reload();
      const sessions = page.getByRole('table', { name: 'Where you are signed in' });
      await expect(sessions.getByRole('row')).toHaveCount(3);
      await sessions.getByRole('button', { name: /^End the session/ }).click();
      await page
        .getByRole('dialog', { name: 'End this session?' })
        .getByRole('button', { name: 'End session' })
        .click();
      await expect(sessions.getByRole('row')).toHaveCount(2);
      await other.reload();
      await expect(other).toHaveURL(/\/developers\/sign-in/);
      await elsewhere.close();
    });

    test('an admin sends a reset link; the member chooses a new password from the email', async ({ page }) => {
      const admin = member('admin');
      const email = member('practitioner');
      await signIn(page, admin);
      await (await portalNav(page)).getByRole('link', { name: 'Team' }).click();
      const row = page.getByRole('row', { name: new RegExp(email) });
      await row.getByRole('button', { name: /Send a password reset link/ }).click();
      await expect(row.getByText(`A link to choose their password was emailed to ${email}.`)).toBeVisible();
      await signOut(page);

      const mail = await mailTo(email);
      expect(mail.subject).toMatch(/Reset your E2E Staff portal password/);
      await page.goto(linkIn(mail));
      await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
      // The token leaves the address bar at once.
      expect(page.url()).toBe(`${origin}/developers/password`);
      await clean(page, 'choose a password');
      await page.getByRole('textbox', { name: 'New password' }).fill('password123');
      await page.getByRole('button', { name: 'Save password' }).click();
      await expect(page.getByText(/must be at least 15 characters/)).toBeVisible();
      await page.getByRole('textbox', { name: 'New password' }).fill(newPassword);
      await page.getByRole('button', { name: 'Save password' }).click();
      await expect(page.getByRole('status')).toHaveText(
        `Your password is set. Sign in with ${email} and your new password.`,
      );
      await page.goto(`${origin}/developers/sign-in`);
      await page.goto(linkIn(mail));
      await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
      await signIn(page, email, newPassword);
      await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
    });

    test('an authenticator app: set up from its key, then sign-in asks for a code; a recovery code works once', async ({
      page,
    }) => {
      test.slow(); // it waits for the app's next 30-second code

      const email = member('admin');
      await signIn(page, email);
      await openAccount(page);
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      const key = await page.getByRole('textbox', { name: 'Key to type into the app' }).inputValue();
      await clean(page, 'authenticator setup');
      const setupCode = codeFor(key);
      await page.getByLabel('Code from the app').fill(setupCode);
      await page.getByRole('button', { name: 'Turn on the app' }).click();
      // Read once they are on the page (allTextContents does not wait for them).
      const listed = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await expect(listed).toHaveCount(10);
      const codes = await listed.allTextContents();
      await signOut(page);

      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'Second step' })).toBeVisible();
      await clean(page, 'second step');
      await page.getByLabel('Code from your authenticator app').fill('000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('That code is not right')).toBeVisible();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(codes[0]);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
      await signOut(page);

      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(codes[0]);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('That code is not right')).toBeVisible();
      await page.getByRole('button', { name: 'Use a code from the app instead' }).click();
      // A code is accepted once: the one that turned the app on is refused, the app's next one works.
      await expect.poll(() => codeFor(key) !== setupCode, { timeout: 35_000, intervals: [1000] }).toBe(true);
      await page.getByLabel('Code from your authenticator app').fill(codeFor(key));
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
    });

    test('a passkey through the virtual authenticator: added on Your account, then used to sign in', async ({
      page,
    }) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });
      const email = member('practitioner');
      await signIn(page, email);
      await openAccount(page);
      await page.getByLabel('Passkey name (where it lives)').fill('Test laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Name of the passkey Test laptop' })).toHaveValue('Test laptop');
      await clean(page, 'passkeys');
      await signOut(page);

      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
    });

    test("the clinic's rule: a member without a second factor sets one up before the portal opens", async ({
      page,
    }) => {
      test.slow(); // three command-line calls (a clinic of its own) before the browser starts
      // A clinic of its own: the rule covers everyone there.
      const own = `${clinic}${size.name.slice(0, 2)}`;
      const here = ['--clinic', own, '--region', 'neptune'];
      cli(['account', 'create', ...here, '--name', 'E2E Rule', '--timezone', 'Europe/London', '--currency', 'GBP']);
      const [owner, email] = [`owner@${own}.test`, `desk@${own}.test`];
      cli(
        ['user', 'create', ...here, '--email', owner, '--name', 'Olive Owner', '--role', 'owner', '--password-stdin'],
        password,
      );
      cli(
        [
          'user',
          'create',
          ...here,
          '--email',
          email,
          '--name',
          'Dee Desk',
          '--role',
          'receptionist',
          '--password-stdin',
        ],
        password,
      );
      const home = origin.replace(clinic, own);
      const signInHere = async (who: string) => {
        await page.goto(`${home}/developers/sign-in`);
        await page.getByLabel('Email').fill(who);
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Sign in' }).click();
      };
      await signInHere(owner);
      await (await portalNav(page)).getByRole('link', { name: 'Team' }).click();
      await page.getByLabel('Who must use it').selectOption({ label: 'Required for owners and admins' });
      await page.getByRole('button', { name: 'Save rule' }).click();
      await expect(page.getByText('Saved', { exact: true })).toBeVisible();
      await clean(page, 'team with the rule');
      await page.getByLabel('Who must use it').selectOption({ label: 'Required for everyone' });
      await page.getByRole('button', { name: 'Save rule' }).click();
      await expect(page.getByText('Saved', { exact: true })).toBeVisible();
      await signOut(page);

      await signInHere(email);
      await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
      await clean(page, 'two-factor required');
      // Nothing else opens until it is done.
      await page.goto(`${home}/developers/keys`);
      await expect(page).toHaveURL(/\/developers\/sign-in/);
      await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const key = await page.getByRole('textbox', { name: 'Key to type into the app' }).inputValue();
      await page.getByLabel('Code from the app').fill(codeFor(key));
      await page.getByRole('button', { name: 'Turn on the app' }).click();
      await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
      await page.getByRole('button', { name: 'Continue to the portal' }).click();
      await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
    });
  });
}
