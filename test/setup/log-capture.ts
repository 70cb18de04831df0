import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'qs';

/**
 * Request fields that hold personal data (a client's, or a document's copy of it) or a secret:
 * a webhook's URL, which may carry the receiver's token (docs/events.md: no line logs one).
 */
const PERSONAL_FIELD = /^(names|email|phone|address|tax_id|customer_\w+|q|reason|url)$/;
/** Headers that carry an API key. */
const KEY_HEADERS = ['authorization', 'x-api-key'];
/** An e-mail address; `node_modules/@nestjs/…` in a stack frame is not one. */
const EMAIL_ADDRESS = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const ALPHANUMERIC = /^[A-Za-z0-9]$/;
/** Shorter values ("Bob", "12") could turn up in any line by chance. */
const MIN_LENGTH = 4;

/**
 * The test app's log destination: keeps every line the app logs, remembers the personal
 * values and API keys of every request it answers, and checks at the end that no line holds
 * one of them, nor any e-mail address.
 */
export class LogCapture {
  readonly lines: string[] = [];
  private readonly secrets = new Set<string>();

  write(line: string): void {
    this.lines.push(line);
  }

  /** The lines as objects. */
  entries(): Array<Record<string, unknown>> {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /**
   * Remembers what each request to `server` sends: its query string and key headers at once,
   * its body (parsed by the app) as soon as it is answered.
   */
  watch(server: Server): void {
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const query = (request.url ?? '').split('?').slice(1).join('?');
      collectPersonal(parseQuery(query, { depth: 40, arrayLimit: 1000 }), this.secrets);
      for (const header of KEY_HEADERS) {
        const value = request.headers[header];
        if (typeof value === 'string') this.secrets.add(value.replace(/^Bearer\s+/i, ''));
      }
      const rememberBody = (): void =>
        collectPersonal((request as IncomingMessage & { body?: unknown }).body, this.secrets);
      response.once('finish', rememberBody).once('close', rememberBody);
    });
  }

  /** Also keep out of the logs these values (the configured API keys). */
  forbid(values: string[]): void {
    values.forEach((value) => this.secrets.add(value));
  }

  /** Throws naming the first line that holds personal data or a key. */
  assertNoPersonalData(): void {
    const text = this.lines.join('\n');
    const forbidden = [...this.secrets]
      .map((secret) => secret.trim())
      .filter((secret) => secret.length >= MIN_LENGTH)
      .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
    const leak = EMAIL_ADDRESS.exec(text)?.[0] ?? forbidden.find((value) => holdsWord(text, value));
    if (leak === undefined) return;
    const line = this.lines.find((candidate) => candidate.includes(leak)) ?? '';
    throw new Error(
      `A log line holds personal data or a key (${leak.slice(0, 80)}): ${line.slice(0, 400)}`,
    );
  }
}

/** Every string under a personal field, however deep in the input. */
function collectPersonal(input: unknown, into: Set<string>, personal = false): void {
  // An uploaded file (POST /expense/import) is bytes, not named fields: nothing to collect,
  // and walking its bytes one by one took seconds.
  if (Buffer.isBuffer(input)) return;
  if (typeof input === 'string') {
    if (personal) into.add(input);
  } else if (Array.isArray(input)) {
    input.forEach((item) => collectPersonal(item, into, personal));
  } else if (typeof input === 'object' && input !== null) {
    for (const [key, value] of Object.entries(input)) {
      collectPersonal(value, into, personal || PERSONAL_FIELD.test(key));
    }
  }
}

/** Whether `text` holds `value` not run into other letters or digits ("Acme" is not in "Acmes"). */
function holdsWord(text: string, value: string): boolean {
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    const before = text.charAt(at - 1);
    const after = text.charAt(at + value.length);
    if (!ALPHANUMERIC.test(before) && !ALPHANUMERIC.test(after)) return true;
  }
  return false;
}
