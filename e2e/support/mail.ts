/** Mail the e2e app sent (support/smtp-server.ts wrote it to E2E_MAILDIR), read back as a person reads their inbox. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** The newest message to `address`, waited for (up to 10 s). */
export async function mailTo(address: string): Promise<Mail> {
  const dir = process.env.E2E_MAILDIR!;
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        const files = readdirSync(dir).sort().reverse();
        found = files
          .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Mail)
          .find((m) => m.to.includes(address));
        return Boolean(found);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

/** The link in a message. */
export const linkIn = (mail: Mail) => /(https?:\/\/\S+#token=[\w-]+)/.exec(mail.text)![1];
