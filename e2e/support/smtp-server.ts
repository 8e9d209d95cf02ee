/**
 * The browser tests' mail server: a real SMTP server (smtp-server) on E2E_SMTP_PORT that the e2e app
 * sends set-up and reset links to; each message is written, parsed, to E2E_MAILDIR as one JSON file,
 * for the tests to read back (support/mail.ts). Started by playwright.config.ts beside the app.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const dir = process.env.E2E_MAILDIR!;
mkdirSync(dir, { recursive: true });
let n = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, done) {
    simpleParser(stream).then((mail) => {
      const to = session.envelope.rcptTo.map((r) => r.address);
      writeFileSync(
        path.join(dir, `${Date.now()}-${n++}.json`),
        JSON.stringify({ to, subject: mail.subject, text: mail.text }),
      );
      done();
    }, done);
  },
});
server.listen(Number(process.env.E2E_SMTP_PORT), '127.0.0.1');
