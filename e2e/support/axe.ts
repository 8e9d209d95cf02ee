/**
 * What every portal page is held to: axe's serious and critical findings (target-size on: WCAG 2.2 AA's
 * 24 px targets are off in axe by default, on as the portal issue counts them), as "rule: targets" lines
 * so a failure reads at a glance; and how far a page scrolls sideways (phones: none).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export async function axe(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { 'target-size': { enabled: true } } })
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export const sideways = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
