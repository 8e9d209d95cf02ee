/** The portal's navigation as a person reaches it: on a phone, behind the Menu button. */
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The navigation, its phone menu opened first (on a laptop the links always show). The button is
 * pressed again until it says it is open: a press before the page is hydrated does nothing.
 */
export async function portalNav(page: Page): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Portal' });
  await nav.waitFor();
  const menu = nav.getByRole('button', { name: /^Menu/ });
  if (!(await menu.isVisible())) return nav;
  await expect(async () => {
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true', { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  return nav;
}

/**
 * An owner of a clinic not set up yet starts on "Set up your clinic" after signing in: from there to
 * `page`'s own heading through the menu, as a person goes.
 */
export async function fromStart(page: Page, link: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Set up your clinic', level: 1 })).toBeVisible();
  await (await portalNav(page)).getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { name: link, level: 1 })).toBeVisible();
}
