import { Transform } from 'class-transformer';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { einvoiceAddressText, parseEinvoiceAddress } from './einvoice-codes';
import { COUNTRY_CODES, LANGUAGE_CODES } from './iso-codes';
import { isCurrencyCode, minorUnits } from './money/currency';
import { Decimal, parseDecimal, writtenPlaces } from './money/decimal';
import { JsonNumberText } from './json-number-text';
import { hasAtMostPlaces, MONEY_LIMIT } from './money/money';

/*
 * Property decorators for the inputs of docs/rules.md: each pairs a transform (form fields
 * arrive as text, JSON as numbers or text) with the rule that checks the transformed value.
 * One rule per kind of value, and only free text is trimmed: a number, a date or a listed
 * value with white space around it is not the value, and guessing what was meant would make
 * two spellings of one thing.
 */

function rule(
  name: string,
  validate: (value: unknown, args: ValidationArguments) => boolean,
  message: string | ((args: ValidationArguments) => string),
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message, ...options },
      validator: { validate },
    });
}

/** A JSON number's text, so that plain decimals keep every digit; anything else as given. */
function numberInput(value: unknown): unknown {
  return value instanceof JsonNumberText ? value.text : value;
}

/** Free text with surrounding white space removed; other types are left for the type check. */
export function Trim(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim() : value,
  );
}

/** Ids are auto-increment integers in an unsigned INT column: none is larger. */
export const MAX_ID = 4_294_967_295;
const ID_DIGITS = /^[0-9]+$/;

/** Text that has the shape of an id: ASCII digits, at least one, any number of them. */
export function isIdText(value: unknown): value is string {
  return typeof value === 'string' && ID_DIGITS.test(value);
}

/**
 * The one rule for ids, in the path and in parameters alike. Leading zeros are ignored at any
 * length (`0001` and `00000000000000000001` are both 1). Answers null when the text names no
 * record: not all digits, 0, or past the largest id, however many digits.
 */
export function parseId(text: string): number | null {
  if (!isIdText(text)) return null;
  const significant = text.replace(/^0+/, '');
  // Past ten digits it is past MAX_ID, and Number() would round it anyway.
  if (significant.length === 0 || significant.length > 10) return null;
  const id = Number(significant);
  return id <= MAX_ID ? id : null;
}

/**
 * An id parameter (`id` of send and record-payment, `client`): digits as text or a JSON number.
 * Anything else is malformed (422); which record the digits name is parseId's answer, later,
 * so that digits naming none answer 404 (or 422 "unknown client") whatever their length.
 */
export function IsIdInput(message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'number' ? String(value) : numberInput(value),
    )(target, propertyName);
    rule('isIdInput', isIdText, message)(target, propertyName);
  };
}

interface DecimalBounds {
  /** Smallest allowed value, inclusive unless `exclusiveMin`. */
  min: string;
  exclusiveMin?: boolean;
  /** Largest allowed value, exclusive unless `inclusiveMax`. */
  max: string;
  inclusiveMax?: boolean;
  maxPlaces: number;
}

/**
 * The one reading of a numeric input (docs/rules.md, Transport): a JSON number or text, both in
 * JSON's number grammar without exponent (see parseDecimal), as a Decimal; anything else is
 * left as given for the rule to refuse.
 */
function DecimalTransform(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => parseDecimal(numberInput(value)) ?? value);
}

/** A number as a JSON number or numeric text, plain decimal notation, within bounds. */
export function IsDecimalInput(bounds: DecimalBounds): PropertyDecorator {
  const min = new Decimal(bounds.min);
  const max = new Decimal(bounds.max);
  const lowest = bounds.exclusiveMin ? `greater than ${bounds.min}` : `at least ${bounds.min}`;
  const highest = bounds.inclusiveMax ? `at most ${bounds.max}` : `below ${bounds.max}`;
  const describe = `$property must be a number ${lowest} and ${highest}, with at most ${bounds.maxPlaces} decimals`;
  return (target: object, propertyName: string | symbol) => {
    DecimalTransform()(target, propertyName);
    rule(
      'isDecimalInput',
      (value) =>
        value instanceof Decimal &&
        (bounds.exclusiveMin ? value.gt(min) : value.gte(min)) &&
        (bounds.inclusiveMax ? value.lte(max) : value.lt(max)) &&
        hasAtMostPlaces(value, bounds.maxPlaces),
      describe,
    )(target, propertyName);
  };
}

/**
 * A whole number within bounds (`page`, `per_page`), as a JS number: the decimal grammar with
 * no decimal places, so `2` and `"2"`, not `"02"`, `"2.0"`, `" 2"` or `"+2"`.
 */
export function IsWholeNumberInput(min: number, max: number): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    Transform(({ value }: { value: unknown }) => {
      const decimal = parseDecimal(numberInput(value));
      return decimal !== null && writtenPlaces(decimal) === 0
        ? decimal.clamp(min - 1, max + 1).toNumber()
        : value;
    })(target, propertyName);
    rule(
      'isWholeNumberInput',
      (value) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
      `$property must be a whole number from ${min} to ${max}`,
    )(target, propertyName);
  };
}

/**
 * A money amount > 0, below 10^13, with at most the minor digits of the currency named by the
 * sibling property (checked once that currency is valid).
 */
export function IsMoneyAmount(currencyProperty: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    DecimalTransform()(target, propertyName);
    rule(
      'isMoneyAmount',
      (value, args) => {
        if (!(value instanceof Decimal) || value.lte(0) || value.gte(MONEY_LIMIT)) return false;
        const currency = currencyOf(args, currencyProperty);
        return currency === null || hasAtMostPlaces(value, minorUnits(currency));
      },
      (args) => {
        const currency = currencyOf(args, currencyProperty);
        const places =
          currency === null
            ? ''
            : `, with at most ${minorUnits(currency)} decimals for ${currency}`;
        return `$property must be a number greater than 0 and below 10000000000000${places}`;
      },
    )(target, propertyName);
  };
}

function currencyOf(args: ValidationArguments, property: string): string | null {
  const value = (args.object as Record<string, unknown>)[property];
  return typeof value === 'string' && currencySpelling(asciiLowerCase(value)) === value
    ? value
    : null;
}

/**
 * Lower case for ASCII letters only: the listed values are ASCII, and full Unicode case
 * mapping would let look-alikes in (`ı` upper-cases to `I`, the Kelvin sign lower-cases to
 * `k`, `ſ` upper-cases to `S`).
 */
function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32));
}

/**
 * The one rule for a value of a listed set (docs/rules.md, Transport): text matched without
 * regard to ASCII case and kept in the listed spelling. Nothing is trimmed: white space, or
 * any other character, puts a value outside the set (422). `spelling` answers the listed
 * spelling of a lower-cased value, or undefined when the set has none.
 */
function IsListedValue(
  name: string,
  spelling: (lowerCase: string) => string | undefined,
  message: string,
  fromBoolean?: (value: boolean) => string,
): PropertyDecorator {
  const listed = (value: unknown): value is string =>
    typeof value === 'string' && spelling(asciiLowerCase(value)) === value;
  return (target: object, propertyName: string | symbol) => {
    Transform(({ value }: { value: unknown }) => {
      if (typeof value === 'boolean' && fromBoolean) return fromBoolean(value);
      return typeof value === 'string' ? (spelling(asciiLowerCase(value)) ?? value) : value;
    })(target, propertyName);
    rule(name, listed, message)(target, propertyName);
  };
}

/**
 * A code of a long list (UN/ECE units, VATEX, VAT categories) in any ASCII case, kept in the
 * listed spelling; `message` says what the list is, since it is too long to print.
 */
export function IsListedCode(codes: Iterable<string>, message: string): PropertyDecorator {
  const canonical = new Map([...codes].map((code) => [asciiLowerCase(code), code]));
  return IsListedValue('isListedCode', (lowerCase) => canonical.get(lowerCase), message);
}

/**
 * Two inputs that say one thing two ways (a discount as a percent or as an amount): only one
 * may be given. Put on the second; runs only when it is given.
 */
export function IsNotGivenWith(other: string): PropertyDecorator {
  return rule(
    'isNotGivenWith',
    (_value, args) => {
      const sibling = (args.object as Record<string, unknown>)[other];
      return sibling === undefined || sibling === null;
    },
    `$property and ${other} cannot both be given`,
  );
}

/** Currency codes are listed in upper case. */
function currencySpelling(lowerCase: string): string | undefined {
  return /^[a-z]{3}$/.test(lowerCase) && isCurrencyCode(lowerCase)
    ? lowerCase.toUpperCase()
    : undefined;
}

/** An active ISO 4217 code; lower case is accepted and upper-cased. */
export function IsCurrencyInput(): PropertyDecorator {
  return IsListedValue(
    'isCurrencyInput',
    currencySpelling,
    '$property must be an active ISO 4217 currency code',
  );
}

/** Codes listed in one spelling (upper or lower case), and '' for none. */
function codeSpelling(codes: readonly string[]): (lowerCase: string) => string | undefined {
  const canonical = new Map(codes.map((code) => [asciiLowerCase(code), code]));
  canonical.set('', '');
  return (lowerCase) => canonical.get(lowerCase);
}

/** An ISO 3166-1 alpha-2 country code in any case, kept upper case; '' for none. */
export function IsCountryInput(): PropertyDecorator {
  return IsListedValue(
    'isCountryInput',
    codeSpelling(COUNTRY_CODES),
    '$property must be an ISO 3166-1 alpha-2 country code (DE, US, …), or empty',
  );
}

/** An ISO 639-1 language code in any case, kept lower case; '' for none. */
export function IsLanguageInput(): PropertyDecorator {
  return IsListedValue(
    'isLanguageInput',
    codeSpelling(LANGUAGE_CODES),
    '$property must be an ISO 639-1 language code (en, de, fr, …), or empty',
  );
}

/** One of a listed set, in any case, stored in the listed spelling. */
export function IsOneOf(allowed: readonly string[]): PropertyDecorator {
  const canonical = new Map(allowed.map((value) => [asciiLowerCase(value), value]));
  return IsListedValue(
    'isOneOf',
    (lowerCase) => canonical.get(lowerCase),
    `$property must be one of: ${allowed.join(', ')}`,
  );
}

/** `True`/`False` in any case, or a JSON boolean; kept as `True`/`False`. */
export function IsTrueFalse(): PropertyDecorator {
  const canonical = new Map([
    ['true', 'True'],
    ['false', 'False'],
  ]);
  return IsListedValue(
    'isTrueFalse',
    (lowerCase) => canonical.get(lowerCase),
    '$property must be True or False',
    (value) => (value ? 'True' : 'False'),
  );
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_ONLY.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map((part) => parseInt(part, 10));
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/**
 * The one rule for a range of dates (every list filter and report period): its last day is
 * not before its first. Checked once both are real dates; a 422 names the last.
 */
export function IsNotBefore(first: string): PropertyDecorator {
  return rule(
    'isNotBefore',
    (value, args) => {
      const start = (args.object as Record<string, unknown>)[first];
      return !isCalendarDate(value) || !isCalendarDate(start) || value >= start;
    },
    `$property must not be before ${first}`,
  );
}

/** A real calendar date as YYYY-MM-DD exactly: nothing is trimmed. */
export function IsDateInput(): PropertyDecorator {
  return rule(
    'isDateInput',
    isCalendarDate,
    '$property must be a real date in the form YYYY-MM-DD',
  );
}

/**
 * An electronic address, `scheme:identifier` (common/einvoice-codes.ts): the scheme in any
 * case, kept in its listed spelling, the identifier as written; '' for none. Not trimmed: like
 * a listed value, white space around it is not the address.
 */
export function IsEinvoiceAddressInput(): PropertyDecorator {
  const canonical = (value: string): string | null => {
    if (value === '') return '';
    const address = parseEinvoiceAddress(value);
    return address && einvoiceAddressText(address);
  };
  return (target: object, propertyName: string | symbol) => {
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (canonical(value) ?? value) : value,
    )(target, propertyName);
    rule(
      'isEinvoiceAddressInput',
      (value) => typeof value === 'string' && canonical(value) === value,
      '$property must be scheme:identifier, the scheme a code of the EAS list (0088, 0204, 9930, EM, …) and the identifier 1 to 254 printable characters without spaces, or empty',
    )(target, propertyName);
  };
}
