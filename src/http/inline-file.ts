import { StreamableFile } from '@nestjs/common';

/** RFC 5987 attr-char: what may stand unencoded in `filename*`. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;
/**
 * What cannot stand in the quoted `filename`: anything outside printable ASCII, the quote and
 * backslash (quoted-string), `%` (some browsers decode it) and `/` (a path).
 */
const UNSAFE_IN_FILENAME = /[^\x20-\x7e]|["\\%/]/gu;

/**
 * A file answered as it is (EnvelopeExpressAdapter lets it through) and shown by the browser
 * rather than downloaded.
 */
export function inlineFile(content: Buffer, filename: string, type: string): StreamableFile {
  return new StreamableFile(content, {
    type,
    disposition: inlineDisposition(filename),
    length: content.length,
  });
}

/**
 * `inline; filename="<name>"` (RFC 6266). A name with characters a header or a quoted string
 * cannot hold gets an ASCII stand-in there, `_` for each, and the exact name, UTF-8 and
 * percent-encoded, in `filename*` (RFC 5987), which browsers prefer.
 */
export function inlineDisposition(filename: string): string {
  const fallback = filename.replace(UNSAFE_IN_FILENAME, '_');
  if (fallback === filename) return `inline; filename="${filename}"`;
  return `inline; filename="${fallback}"; filename*=UTF-8''${percentEncoded(filename)}`;
}

/** Byte by byte, so no text (an unpaired surrogate included) can make it throw. */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const character = String.fromCharCode(byte);
      return ATTR_CHAR.test(character)
        ? character
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}
