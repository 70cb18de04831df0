import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { AppConfig } from '../config/app-config';

/** Injection token of the MailTransport. */
export const MAIL_TRANSPORT = Symbol('MAIL_TRANSPORT');

/** Messages one instance hands to the transport at once (also the SMTP pool's connections). */
export const DELIVERY_CONCURRENCY = 4;

/**
 * SMTP timeouts: a dead or silent server fails the attempt in seconds (retried later) instead of
 * holding a worker for nodemailer's defaults (2 min to connect, 10 min of silence).
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Attachments come from buffers only: a message can never read a file or fetch a URL. */
const CONTENT_FROM_MEMORY_ONLY = { disableFileAccess: true, disableUrlAccess: true };

export interface OutgoingMail {
  options: Mail.Options;
  /** The `.eml` file's name without extension: unique per outbox row, the same on a retry. */
  fileStem: string;
}

/** Where messages go: an SMTP server, or `.eml` files. */
export interface MailTransport {
  /** Resolves once the server has accepted the message (or the file is written). */
  send(mail: OutgoingMail, signal: AbortSignal): Promise<void>;
  close(): void;
}

export function createMailTransport(config: AppConfig): MailTransport {
  return config.smtpUrl
    ? new SmtpMailTransport(config.smtpUrl)
    : new EmlFileTransport(config.mailDir);
}

/**
 * Pooled: connections are kept open and reused, so a burst of sends does not pay a TCP and
 * EHLO (and TLS, AUTH) handshake per message.
 */
class SmtpMailTransport implements MailTransport {
  private readonly transporter: Mail;

  constructor(url: string) {
    this.transporter = createTransport({
      url,
      pool: true,
      maxConnections: DELIVERY_CONCURRENCY,
      ...SMTP_TIMEOUTS,
      ...CONTENT_FROM_MEMORY_ONLY,
    });
  }

  async send(mail: OutgoingMail, signal: AbortSignal): Promise<void> {
    await this.transporter.sendMail({ ...mail.options, signal });
  }

  close(): void {
    this.transporter.close();
  }
}

/**
 * The embedded default: each message as an `.eml` file a person can open. The file is written
 * under a temporary name and renamed, so a reader never sees half a message, and a retry after
 * a crash replaces the file rather than adding a second one.
 */
class EmlFileTransport implements MailTransport {
  private readonly composer = createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
    ...CONTENT_FROM_MEMORY_ONLY,
  });

  constructor(private readonly directory: string) {}

  async send(mail: OutgoingMail, signal: AbortSignal): Promise<void> {
    const { message } = await this.composer.sendMail({ ...mail.options, signal });
    await mkdir(this.directory, { recursive: true });
    const file = join(this.directory, `${mail.fileStem}.eml`);
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, message as Buffer, { signal });
    await rename(partial, file);
  }

  close(): void {
    this.composer.close();
  }
}
