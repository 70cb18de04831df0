import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  isCalendarDate,
  IsCountryInput,
  IsCurrencyInput,
  IsDateInput,
  IsDecimalInput,
  isIdText,
  IsLanguageInput,
  IsMoneyAmount,
  IsOneOf,
  IsTrueFalse,
  IsWholeNumberInput,
  parseId,
  Trim,
} from './input-rules';
import { JsonNumberText } from './json-number-text';
import { Decimal } from './money/decimal';

describe('isCalendarDate', () => {
  it.each([
    '2026-03-01',
    '2028-02-29',
    '2000-02-29',
    '2026-12-31',
    '9999-12-31',
    '1000-01-01',
    '0001-01-01',
    '0099-12-31',
    '0100-01-01',
  ])('accepts the real date %s', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each([
    '2026-02-30',
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-01',
    '2026-01-00',
    '0000-01-01',
    '0099-02-29',
    '2026-2-3',
    '26-03-01',
    '2026/03/01',
    ' 2026-03-01',
    '2026-03-01T00:00:00Z',
    '',
  ])('refuses %j', (date) => {
    expect(isCalendarDate(date)).toBe(false);
  });

  it.each([20260301, null, undefined, new Date('2026-03-01'), ['2026-03-01']])(
    'refuses the non-text %p',
    (value) => {
      expect(isCalendarDate(value)).toBe(false);
    },
  );
});

describe('parseId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['0001', 1],
    ['00000000000000000001', 1],
    [`${'0'.repeat(100)}7`, 7],
    ['4294967295', 4_294_967_295],
    ['0004294967295', 4_294_967_295],
  ])('reads %j as %p, leading zeros ignored at any length', (text, id) => {
    expect(parseId(text)).toBe(id);
  });

  it.each([
    '0',
    '0000',
    '4294967296',
    '999999999999',
    '9'.repeat(30),
    '1'.repeat(400),
    '10000000000000000000001',
  ])('answers null for the digits %j, which name no record', (text) => {
    expect(parseId(text)).toBeNull();
  });

  it.each(['', 'abc', '-1', '+1', '1.0', '1e2', '0x1', ' 1', '1 ', '١', '１'])(
    'answers null for %j, which is not all ASCII digits',
    (text) => {
      expect(parseId(text)).toBeNull();
    },
  );
});

describe('isIdText', () => {
  it.each(['0', '1', '0001', '9'.repeat(30)])('takes %j for an id', (text) => {
    expect(isIdText(text)).toBe(true);
  });

  it.each(['', 'abc', '-1', '1.5', ' 1', '١', 1, null, undefined, ['1']])('refuses %p', (value) => {
    expect(isIdText(value)).toBe(false);
  });
});

/** Runs a DTO class over one input the way the validation pipe does. */
function check<T extends object>(
  dto: new () => T,
  input: Record<string, unknown>,
): { value: T; errors: string[] } {
  const value = plainToInstance(dto, input);
  const errors = validateSync(value, { stopAtFirstError: true }).map((error) => error.property);
  return { value, errors };
}

class DecimalDto {
  @IsDecimalInput({ min: '0', max: '10000000000000', maxPlaces: 4 })
  rate: unknown;
}

class SignedDecimalDto {
  @IsDecimalInput({ min: '-100', max: '100', inclusiveMax: true, maxPlaces: 4 })
  value: unknown;
}

/** The spellings the grammar refuses, whatever the bounds. */
const NOT_THE_GRAMMAR = [
  '+5',
  '.5',
  '5.',
  '-.5',
  '00012',
  '012.5',
  '-012',
  ' 5 ',
  ' 5',
  '5 ',
  '\t5',
  '5\n',
  '1 000',
  '- 5',
  '1e3',
  '1E3',
  'NaN',
  'Infinity',
  '0x10',
  '12,5',
  '١٢',
  '',
];

describe('IsDecimalInput', () => {
  it.each(['0', '5', '12.5', '0.125', '10.5000', 0, 5, 12.5, 0.125])('accepts %j', (rate) => {
    expect(check(DecimalDto, { rate }).errors).toEqual([]);
  });

  it('reads text and a lossless JSON number to the same exact Decimal', () => {
    const fromText = check(DecimalDto, { rate: '0.125' }).value.rate;
    const fromNumber = check(DecimalDto, { rate: new JsonNumberText('0.125') }).value.rate;

    expect(fromText).toBeInstanceOf(Decimal);
    expect((fromText as Decimal).toFixed()).toBe('0.125');
    expect((fromNumber as Decimal).toFixed()).toBe('0.125');
  });

  it.each(NOT_THE_GRAMMAR)('refuses the text %j', (rate) => {
    expect(check(DecimalDto, { rate }).errors).toEqual(['rate']);
  });

  it.each(NOT_THE_GRAMMAR.filter((text) => text !== ''))(
    'refuses %j as the text of a JSON number, under the same grammar',
    (text) => {
      expect(check(DecimalDto, { rate: new JsonNumberText(text) }).errors).toEqual(['rate']);
    },
  );

  it.each(['1.50000', new JsonNumberText('1.50000'), '0.00001', '12.50000000000000001'])(
    'counts places as written: %j has more than 4',
    (rate) => {
      expect(check(DecimalDto, { rate }).errors).toEqual(['rate']);
    },
  );

  it.each(['-0', '-0.0', new JsonNumberText('-0'), -0])('refuses the negative zero %p', (rate) => {
    expect(check(DecimalDto, { rate }).errors).toEqual(['rate']);
    expect(check(SignedDecimalDto, { value: rate }).errors).toEqual(['value']);
  });

  it('leaves negatives to the bounds, not the grammar', () => {
    expect(check(DecimalDto, { rate: '-1' }).errors).toEqual(['rate']);
    expect(check(SignedDecimalDto, { value: '-1' }).errors).toEqual([]);
    expect(check(SignedDecimalDto, { value: -1 }).errors).toEqual([]);
    expect(check(SignedDecimalDto, { value: '-12.5' }).errors).toEqual([]);
  });

  it.each([null, true, [], ['5'], { value: '5' }])('refuses the non-number %p', (rate) => {
    expect(check(DecimalDto, { rate }).errors).toEqual(['rate']);
  });
});

class ExpenseLikeDto {
  @IsMoneyAmount('currency')
  amount: unknown;

  @IsCurrencyInput()
  currency: unknown;
}

describe('IsMoneyAmount', () => {
  it.each([
    ['10.50', 'USD'],
    ['10.5', 'usd'],
    ['1500', 'JPY'],
    ['1.125', 'KWD'],
  ])('accepts %j %s', (amount, currency) => {
    expect(check(ExpenseLikeDto, { amount, currency }).errors).toEqual([]);
  });

  it.each([
    ['10.500', 'USD'],
    ['1500.0', 'JPY'],
    ['1.1250', 'KWD'],
  ])('counts places as written: %j is too many for %s', (amount, currency) => {
    expect(check(ExpenseLikeDto, { amount, currency }).errors).toEqual(['amount']);
  });

  it.each([...NOT_THE_GRAMMAR, '-0', '0', '-1'])('refuses %j', (amount) => {
    expect(check(ExpenseLikeDto, { amount, currency: 'USD' }).errors).toEqual(['amount']);
  });
});

describe('IsCurrencyInput', () => {
  it.each([
    ['USD', 'USD'],
    ['usd', 'USD'],
    ['uSd', 'USD'],
    ['jpy', 'JPY'],
  ])('takes %j as %s', (currency, stored) => {
    const { value, errors } = check(ExpenseLikeDto, { amount: '1', currency });

    expect(errors).toEqual([]);
    expect(value.currency).toBe(stored);
  });

  it.each(['USD ', ' usd', 'U SD', 'US', 'USDD', 'XXX', 'ABC', 'u\u017fd', '', 840, null])(
    'refuses %p',
    (currency) => {
      expect(check(ExpenseLikeDto, { amount: '1', currency }).errors).toEqual(['currency']);
    },
  );
});

class ClientLikeDto {
  @IsCountryInput()
  country: unknown;

  @IsLanguageInput()
  language: unknown;
}

describe('IsCountryInput and IsLanguageInput', () => {
  it.each([
    ['DE', 'de', 'DE', 'de'],
    ['de', 'DE', 'DE', 'de'],
    ['gB', 'Fr', 'GB', 'fr'],
    ['', '', '', ''],
  ])('take %j and %j as %s and %s', (country, language, storedCountry, storedLanguage) => {
    const { value, errors } = check(ClientLikeDto, { country, language });

    expect(errors).toEqual([]);
    expect([value.country, value.language]).toEqual([storedCountry, storedLanguage]);
  });

  it.each(['DE ', ' de', ' ', 'D', 'DEU', 'XK', 'EU', 'UK', 'ZZ', 'KR', 'dе', 276, ['DE'], null])(
    'refuse the country %p: no trimming, no look-alikes, only assigned codes',
    (country) => {
      expect(check(ClientLikeDto, { country, language: 'en' }).errors).toEqual(['country']);
    },
  );

  it.each([
    'en ',
    ' en',
    'eng',
    'e',
    'iw',
    'in',
    'mo',
    'sh',
    'xx',
    'zz',
    'en-GB',
    'en_US',
    1,
    null,
  ])('refuse the language %p: ISO 639-1 codes in use only', (language) => {
    expect(check(ClientLikeDto, { country: 'DE', language }).errors).toEqual(['language']);
  });
});

class PaymentLikeDto {
  @IsOneOf(['Cash', 'Bank Transfer', 'Others'])
  payment_method: unknown;
}

describe('IsOneOf', () => {
  it.each([
    ['Cash', 'Cash'],
    ['cash', 'Cash'],
    ['CASH', 'Cash'],
    ['bank transfer', 'Bank Transfer'],
    ['BANK TRANSFER', 'Bank Transfer'],
  ])('takes %j as %s', (payment_method, stored) => {
    const { value, errors } = check(PaymentLikeDto, { payment_method });

    expect(errors).toEqual([]);
    expect(value.payment_method).toBe(stored);
  });

  it.each([
    'cash ',
    ' Cash',
    'CASH\t',
    '\u00a0Cash',
    'Bank  Transfer',
    'Bank\tTransfer',
    'BankTransfer',
    'Ban\u212a Transfer',
    'Cas',
    '',
    1,
    ['Cash'],
    null,
  ])('refuses %p: no trimming, no look-alike letters', (payment_method) => {
    expect(check(PaymentLikeDto, { payment_method }).errors).toEqual(['payment_method']);
  });
});

class StatusLikeDto {
  @IsOneOf(['Paid', 'Not Paid'])
  payment_status: unknown;
}

describe('IsOneOf with payment statuses', () => {
  it.each(['PAID ', ' paid', 'pa\u0131d', 'not  paid', 'Not Paid '])('refuses %j', (status) => {
    expect(check(StatusLikeDto, { payment_status: status }).errors).toEqual(['payment_status']);
  });

  it.each([
    ['PAID', 'Paid'],
    ['not paid', 'Not Paid'],
  ])('takes %j as %s', (status, stored) => {
    expect(check(StatusLikeDto, { payment_status: status }).value.payment_status).toBe(stored);
  });
});

class AcceptedDto {
  @IsTrueFalse()
  accepted: unknown;
}

describe('IsTrueFalse', () => {
  it.each([
    [true, 'True'],
    [false, 'False'],
    ['True', 'True'],
    ['true', 'True'],
    ['TRUE', 'True'],
    ['fAlSe', 'False'],
  ])('takes %p as %s', (accepted, stored) => {
    const { value, errors } = check(AcceptedDto, { accepted });

    expect(errors).toEqual([]);
    expect(value.accepted).toBe(stored);
  });

  it.each(['true ', ' False', 'yes', '1', 1, 0, '', null, ['true']])('refuses %p', (accepted) => {
    expect(check(AcceptedDto, { accepted }).errors).toEqual(['accepted']);
  });
});

class DateDto {
  @IsDateInput()
  from: unknown;
}

describe('IsDateInput', () => {
  it('takes a real date as written', () => {
    const { value, errors } = check(DateDto, { from: '2026-03-01' });

    expect(errors).toEqual([]);
    expect(value.from).toBe('2026-03-01');
  });

  it.each([' 2026-03-01', '2026-03-01 ', '2026-03-01\n', '2026-02-30'])('refuses %j', (from) => {
    expect(check(DateDto, { from }).errors).toEqual(['from']);
  });
});

class PageDto {
  @IsWholeNumberInput(1, 500)
  per_page: unknown;
}

describe('IsWholeNumberInput', () => {
  it.each([
    ['1', 1],
    ['50', 50],
    ['500', 500],
    [7, 7],
  ])('reads %p as %p', (per_page, expected) => {
    const { value, errors } = check(PageDto, { per_page });

    expect(errors).toEqual([]);
    expect(value.per_page).toBe(expected);
  });

  it.each([
    ...NOT_THE_GRAMMAR,
    '02',
    '2.0',
    '2.5',
    '-0',
    '0',
    '-1',
    '501',
    '99999999999999999999999',
    2.5,
    ['2'],
  ])('refuses %p', (per_page) => {
    expect(check(PageDto, { per_page }).errors).toEqual(['per_page']);
  });
});

class NameDto {
  @Trim()
  names: unknown;
}

describe('Trim', () => {
  it('trims free text, and only text', () => {
    expect(check(NameDto, { names: '  Ada Lovelace \n' }).value.names).toBe('Ada Lovelace');
    expect(check(NameDto, { names: 5 }).value.names).toBe(5);
  });
});
