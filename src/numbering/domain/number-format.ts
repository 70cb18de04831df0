/*
 * docs/numbering.md: a number series' format is literal text with the tokens {YYYY}, {YY},
 * {MM} (of the document's issue date) and exactly one {SEQ} or {SEQ:n} (the sequence,
 * zero-padded to n digits). The date tokens make the number's period: each period has its own
 * counter, so `INV-{YYYY}-{SEQ:4}` restarts every year and a document dated in an earlier year
 * continues that year's sequence.
 */

/** The longest number a document may carry (invoice_no and its kin are 1 to 64 characters). */
export const MAX_NUMBER_LENGTH = 64;
/** The counter is an unsigned INT: no sequence number has more digits. */
const MAX_SEQUENCE_DIGITS = 10;
export const MAX_SEQUENCE = 4_294_967_295;

type Part =
  | { kind: 'text'; text: string }
  | { kind: 'date'; token: 'YYYY' | 'YY' | 'MM' }
  | { kind: 'sequence'; width: number };

export interface NumberFormat {
  text: string;
  parts: Part[];
}

const TOKEN = /\{([^{}]*)\}/g;

/** The format read, or the reason it is not one (a sentence naming the fault). */
export function parseFormat(text: string): NumberFormat | string {
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    last = match.index + match[0].length;
    const token = match[1];
    if (token === 'YYYY' || token === 'YY' || token === 'MM') {
      parts.push({ kind: 'date', token });
      continue;
    }
    const sequence = /^SEQ(?::([1-9][0-9]?))?$/.exec(token);
    if (!sequence) {
      return `format has an unknown token {${token}}: use {YYYY}, {YY}, {MM}, {SEQ} or {SEQ:n}`;
    }
    const width = sequence[1] === undefined ? 1 : Number(sequence[1]);
    if (width > MAX_SEQUENCE_DIGITS) {
      return `format pads {SEQ} to at most ${MAX_SEQUENCE_DIGITS} digits`;
    }
    parts.push({ kind: 'sequence', width });
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  const texts = parts.flatMap((part) => (part.kind === 'text' ? [part.text] : []));
  if (texts.some((literal) => literal.includes('{') || literal.includes('}'))) {
    return 'format has a brace outside a token';
  }
  if (parts.filter((part) => part.kind === 'sequence').length !== 1) {
    return 'format must hold {SEQ} or {SEQ:n} exactly once';
  }
  if (longestNumber(parts) > MAX_NUMBER_LENGTH) {
    return `format makes numbers longer than ${MAX_NUMBER_LENGTH} characters`;
  }
  return { text, parts };
}

/** The longest number the parts can write: the sequence at its most digits. */
function longestNumber(parts: Part[]): number {
  return parts.reduce((length, part) => {
    if (part.kind === 'text') return length + part.text.length;
    if (part.kind === 'date') return length + part.token.length;
    return length + Math.max(part.width, MAX_SEQUENCE_DIGITS);
  }, 0);
}

function dateToken(token: 'YYYY' | 'YY' | 'MM', date: string): string {
  if (token === 'YYYY') return date.slice(0, 4);
  if (token === 'YY') return date.slice(2, 4);
  return date.slice(5, 7);
}

/**
 * The period a document dated `date` (YYYY-MM-DD) numbers in: its date tokens as the number
 * writes them, joined by `-` ('2026' for the defaults, '2026-03' with {MM}); '' when the
 * format has none, one sequence for ever.
 */
export function periodOf(format: NumberFormat, date: string): string {
  return format.parts
    .flatMap((part) => (part.kind === 'date' ? [dateToken(part.token, date)] : []))
    .join('-');
}

/** The number with sequence `sequence` of the period of `date`. */
export function formatNumber(format: NumberFormat, date: string, sequence: number): string {
  return format.parts
    .map((part) => {
      if (part.kind === 'text') return part.text;
      if (part.kind === 'date') return dateToken(part.token, date);
      return String(sequence).padStart(part.width, '0');
    })
    .join('');
}
