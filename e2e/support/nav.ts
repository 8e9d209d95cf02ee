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
