/**
 * Email to members (set-up and password-reset links) through nodemailer, to SMTP_URL. Without SMTP_URL
 * there is no mailer and the portal shows a link once for an admin to hand over. The message body is
 * the link and what it does; it is never logged.
 */
import nodemailer from 'nodemailer';
import type { Env } from './env';
import { ApiError } from './errors';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createMailer(env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM'>): Mailer | null {
  if (!env.SMTP_URL) return null;
  const transport = nodemailer.createTransport(env.SMTP_URL);
  return {
    async send(mail) {
      try {
        await transport.sendMail({ from: env.MAIL_FROM, ...mail });
      } catch {
        throw new ApiError('not_ready', 'The mail server did not take the message: try again in a minute');
      }
    },
  };
}
