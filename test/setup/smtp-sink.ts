import { AddressInfo, createServer, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';

/** One message as the sink received it. */
export class ReceivedMail {
  private parsed: ParsedMail | undefined;

  constructor(
    /** RCPT TO addresses: who the server was asked to deliver to. */
    readonly recipients: string[],
    readonly raw: Buffer,
  ) {}

  /** Parsed on first use: receiving stays cheap (the delivery benchmark uses this sink). */
  get mail(): ParsedMail {
    return (this.parsed ??= parseMail(this.raw));
  }
}

export interface SmtpSinkOptions {
  /** An SMTP status to refuse a recipient with (e.g. 550), or undefined to accept it. */
  refuse?: (recipient: string) => number | undefined;
  /** How long the server takes to accept a message once it has it all (a slow server). */
  answerAfterMs?: number;
}

/**
 * A real SMTP server on a free loopback port that keeps every message it accepts. It can be
 * stopped and started again on the same port, to play a mail server that is down for a while.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  private port = 0;

  constructor(private readonly options: SmtpSinkOptions = {}) {}

  /** `smtp://127.0.0.1:<port>`, once started. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      // Plain text on the loopback: without STARTTLS the client does not try the sink's
      // self-signed certificate.
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 50,
      onRcptTo: (address, _session, callback) => {
        const status = this.options.refuse?.(address.address);
        if (status === undefined) return callback();
        callback(Object.assign(new Error(`${status} Recipient refused`), { responseCode: status }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
          setTimeout(() => {
            this.received.push(new ReceivedMail(recipients, Buffer.concat(chunks)));
            callback();
          }, this.options.answerAfterMs ?? 0);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Refuses connections from now on; open ones are closed within 50 ms. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The messages whose Message-ID is this one. */
  withMessageId(messageId: string): ReceivedMail[] {
    return this.received.filter((received) => received.mail.headers['message-id'] === messageId);
  }

  /** Waits until at least `count` messages have arrived; fails past the deadline. */
  async waitForCount(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`The SMTP sink got ${this.received.length} of ${count} messages`);
      }
      await delay(10);
    }
    return this.received;
  }
}

/** A server that accepts connections and never says a word: a hung mail server. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: connections to it are refused at once. */
export async function closedPort(): Promise<number> {
  const sink = new SmtpSink();
  await sink.start();
  const port = Number(new URL(sink.url).port);
  await sink.stop();
  return port;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ParsedMail {
  /** Top-level headers, names in lower case, unfolded, encoded words decoded. */
  headers: Record<string, string>;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

/*
 * Just enough MIME to read what nodemailer writes: multipart nesting, base64 and
 * quoted-printable bodies, RFC 2047 encoded words and RFC 2231 parameters.
 */

/** A message (from SMTP or an .eml file) as its text, HTML and attachments. */
export function parseMail(raw: Buffer): ParsedMail {
  const parsed: ParsedMail = { headers: {}, text: '', html: '', attachments: [] };
  const root = parsePart(raw.toString('latin1'));
  parsed.headers = root.headers;
  collectParts(root, parsed);
  return parsed;
}

interface MimePart {
  headers: Record<string, string>;
  /** The body as it appears on the wire, one byte per char (latin1). */
  body: string;
}

function parsePart(source: string): MimePart {
  const split = /\r?\n\r?\n/.exec(source);
  const head = split ? source.slice(0, split.index) : source;
  const body = split ? source.slice(split.index + split[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collectParts(part: MimePart, into: ParsedMail): void {
  const { type, parameters } = headerValue(part.headers['content-type'] ?? 'text/plain');
  if (type.startsWith('multipart/')) {
    const boundary = parameters.boundary;
    const sections = part.body.split(new RegExp(`\\r?\\n?--${escapeRegExp(boundary)}`));
    // The text before the first boundary is a preamble, and after the last ("--") an epilogue.
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      collectParts(parsePart(section.replace(/^[ \t]*\r?\n/, '')), into);
    }
    return;
  }
  const content = decodeBody(part.body, part.headers['content-transfer-encoding']);
  const disposition = headerValue(part.headers['content-disposition'] ?? '');
  const filename = disposition.parameters.filename ?? parameters.name;
  if (disposition.type === 'attachment' || filename !== undefined) {
    into.attachments.push({ filename: filename ?? '', contentType: type, content });
  } else if (type === 'text/html') {
    into.html += content.toString('utf8');
  } else if (type === 'text/plain') {
    into.text += content.toString('utf8');
  }
}

function decodeBody(body: string, encoding = '7bit'): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) =>
            String.fromCharCode(parseInt(hex, 16)),
          ),
        'latin1',
      );
    default:
      return Buffer.from(body.replace(/\r?\n$/, ''), 'latin1');
  }
}

/** `type/subtype; name=value; name*=utf-8''…` as a value and its parameters. */
function headerValue(header: string): { type: string; parameters: Record<string, string> } {
  const [type, ...rest] = header.split(';');
  const parameters: Record<string, string> = {};
  const continued: Record<string, string[]> = {};
  for (const item of rest) {
    const equals = item.indexOf('=');
    if (equals < 0) continue;
    const key = item.slice(0, equals).trim().toLowerCase();
    const value = item
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    const section = /^(.+?)\*(\d+)?\*?$/.exec(key);
    if (section) {
      (continued[section[1]] ??= []).push(value);
    } else {
      parameters[key] = value;
    }
  }
  for (const [key, pieces] of Object.entries(continued)) {
    const joined = pieces.join('');
    const extended = /^([^']*)'[^']*'(.*)$/.exec(joined);
    parameters[key] = extended ? decodeURIComponent(extended[2]) : joined;
  }
  return { type: type.trim().toLowerCase(), parameters };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) as text. */
function decodeWords(value: string): string {
  const decoded = value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('latin1')
        : text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-Fa-f]{2})/g, (_hex, hex: string) =>
              String.fromCharCode(parseInt(hex, 16)),
            ),
    );
  return Buffer.from(decoded, 'latin1').toString('utf8');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
