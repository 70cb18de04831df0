import 'reflect-metadata';
import { DOCUMENT_LOCALES } from '../document-vocabulary/document-locale';
import { paymentTermsVariable, splitKeys, validateEnvironment } from './environment';

describe('validateEnvironment', () => {
  it('accepts an empty environment: every variable has a default', () => {
    expect(() => validateEnvironment({})).not.toThrow();
  });

  it('reads PORT as a number', () => {
    expect(validateEnvironment({ PORT: '8080' }).PORT).toBe(8080);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://localhost/db'],
    ['DATABASE_URL', 'mysql://localhost'],
    ['DEFAULT_CURRENCY', 'ABC'],
    ['BODY_LIMIT', 'lots'],
    ['NODE_ENV', 'staging'],
    ['DATABASE_LOGGING', 'yes please'],
    ['DATABASE_CONNECT_TIMEOUT_MS', '50'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['DATABASE_QUERY_TIMEOUT_MS', '999'],
    ['DATABASE_QUERY_TIMEOUT_MS', '600001'],
    ['API_KEYS', 'short'],
    ['API_KEYS', 'a-long-enough-key-1, has space inside'],
    ['API_KEYS_READONLY', ','],
    ['AUTH_DISABLED', 'sure'],
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['REDIS_URL', 'localhost:6379'],
    ['METRICS_PUBLIC', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['REQUEST_TIMEOUT_MS', '5'],
    ['SHUTDOWN_TIMEOUT_MS', 'soon'],
    ['OUTBOX_POLL_MS', '5'],
    ['OUTBOX_POLL_MS', '-1'],
    ['OUTBOX_LEASE_MS', '1999'],
    ['OUTBOX_LEASE_MS', 'soon'],
    ['OUTBOX_LEASE_MS', '3600001'],
    ['REMINDER_DAYS', '1,x'],
    ['REMINDER_DAYS', '1.5'],
    ['REMINDER_DAYS', '366'],
    ['REMINDER_DAYS', '-400'],
    ['REMINDER_DAYS', '1,,2'],
    ['REMINDER_SCAN_MS', '10'],
    ['RECURRING_SCAN_MS', '49'],
    ['RECURRING_SCAN_MS', 'often'],
    ['DOCUMENT_LOCALE', 'xx'],
    ['DOCUMENT_LOCALE', 'EN'],
    ['DOCUMENT_LOCALE', 'en-GB'],
    ['DOCUMENT_LOCALE', 'english'],
    ['COMPANY_PHONE', '1'.repeat(65)],
    ['COMPANY_WEBSITE', 'w'.repeat(256)],
    ['COMPANY_REGISTRATION', 'r'.repeat(201)],
    ['COMPANY_BANK_ACCOUNT', '1'.repeat(65)],
    ['COMPANY_BANK_BIC', 'B'.repeat(65)],
    ['COMPANY_BANK_NAME', 'n'.repeat(201)],
    ['PAYMENT_TERMS', 't'.repeat(1001)],
    ['PAYMENT_TERMS_EN', 't'.repeat(1001)],
    ['PAYMENT_TERMS_DE', 't'.repeat(1001)],
    ['PAYMENT_TERMS_FR', 't'.repeat(1001)],
    ['PAYMENT_TERMS_ES', 't'.repeat(1001)],
    ['COMPANY_COUNTRY', 'Germany'],
    ['COMPANY_COUNTRY', 'DEU'],
    ['COMPANY_COUNTRY', 'XK'],
    ['COMPANY_COUNTRY', ' DE'],
    ['COMPANY_EINVOICE_ADDRESS', '5790000435975'],
    ['COMPANY_EINVOICE_ADDRESS', '0089:5790000435975'],
    ['COMPANY_EINVOICE_ADDRESS', '0088:'],
    ['COMPANY_EINVOICE_ADDRESS', '0088:579 0000'],
    ['COMPANY_EINVOICE_ADDRESS', ' 0088:5790000435975'],
    ['COMPANY_EINVOICE_ADDRESS', `EM:${'a'.repeat(255)}`],
  ])('stops start-up on a bad %s (%s), naming it', (variable, value) => {
    expect(() => validateEnvironment({ [variable]: value })).toThrow(variable);
  });

  it.each([
    'mysql://user:pass@db:3306/invoicing',
    'mariadb://root@127.0.0.1:3306/invoicing',
    'sqlite:data/invoicing.sqlite',
  ])('accepts DATABASE_URL=%s', (url) => {
    expect(validateEnvironment({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it('reads the database timeouts as numbers', () => {
    const env = validateEnvironment({
      DATABASE_CONNECT_TIMEOUT_MS: '100',
      DATABASE_QUERY_TIMEOUT_MS: '1000',
    });
    expect([env.DATABASE_CONNECT_TIMEOUT_MS, env.DATABASE_QUERY_TIMEOUT_MS]).toEqual([100, 1000]);
  });

  it('reads REMINDER_DAYS as whole days from -365 to 365, with spaces around them', () => {
    expect(validateEnvironment({ REMINDER_DAYS: ' -3, 1,7 ,+14,-365,365' }).REMINDER_DAYS).toBe(
      ' -3, 1,7 ,+14,-365,365',
    );
  });

  it('takes OUTBOX_POLL_MS=0 as "no delivery worker here", otherwise 10 ms at least', () => {
    expect(validateEnvironment({ OUTBOX_POLL_MS: '0' }).OUTBOX_POLL_MS).toBe(0);
    expect(validateEnvironment({ OUTBOX_POLL_MS: '10' }).OUTBOX_POLL_MS).toBe(10);
  });

  it('refuses an OUTBOX_LEASE_MS shorter than twice WEBHOOK_TIMEOUT_MS, naming both', () => {
    expect(() => validateEnvironment({ OUTBOX_LEASE_MS: '19999' })).toThrow(
      /OUTBOX_LEASE_MS.*WEBHOOK_TIMEOUT_MS \(10000\)/,
    );
    expect(() =>
      validateEnvironment({ OUTBOX_LEASE_MS: '5000', WEBHOOK_TIMEOUT_MS: '3000' }),
    ).toThrow(/OUTBOX_LEASE_MS.*WEBHOOK_TIMEOUT_MS \(3000\)/);
    expect(
      validateEnvironment({ OUTBOX_LEASE_MS: '6000', WEBHOOK_TIMEOUT_MS: '3000' }).OUTBOX_LEASE_MS,
    ).toBe(6000);
  });

  it.each([...DOCUMENT_LOCALES])('accepts DOCUMENT_LOCALE=%s', (locale) => {
    expect(validateEnvironment({ DOCUMENT_LOCALE: locale }).DOCUMENT_LOCALE).toBe(locale);
  });

  it('takes the issuer settings as given', () => {
    const issuer = {
      COMPANY_PHONE: '+49 30 1234567',
      COMPANY_WEBSITE: 'https://example.com',
      COMPANY_REGISTRATION: 'Amtsgericht Berlin HRB 12345',
      COMPANY_BANK_ACCOUNT: 'DE89 3704 0044 0532 0130 00',
      COMPANY_BANK_BIC: 'COBADEFFXXX',
      COMPANY_BANK_NAME: 'Commerzbank',
      PAYMENT_TERMS: 'Payable within 30 days, no deduction.',
      PAYMENT_TERMS_DE: 'Zahlbar innerhalb von 30 Tagen ohne Abzug.',
      PAYMENT_TERMS_FR: 'Payable sous 30 jours, sans escompte.',
      PAYMENT_TERMS_ES: 'Pago a 30 días.',
      PAYMENT_TERMS_EN: 't'.repeat(1000),
    };
    expect(validateEnvironment(issuer)).toMatchObject(issuer);
  });

  it('has payment terms of its own for every document locale', () => {
    for (const locale of DOCUMENT_LOCALES) {
      const variable = paymentTermsVariable(locale);
      expect(variable).toBe(`PAYMENT_TERMS_${locale.toUpperCase()}`);
      expect(validateEnvironment({ [variable]: 'Terms' })[variable]).toBe('Terms');
      expect(() => validateEnvironment({ [variable]: 't'.repeat(1001) })).toThrow(variable);
    }
  });

  it('reads COMPANY_COUNTRY as an ISO 3166-1 alpha-2 code in any case, kept upper case', () => {
    expect(validateEnvironment({ COMPANY_COUNTRY: 'de' }).COMPANY_COUNTRY).toBe('DE');
    expect(validateEnvironment({ COMPANY_COUNTRY: 'Fr' }).COMPANY_COUNTRY).toBe('FR');
    expect(validateEnvironment({ COMPANY_COUNTRY: '' }).COMPANY_COUNTRY).toBeUndefined();
  });

  it('reads COMPANY_EINVOICE_ADDRESS as scheme:identifier, the EAS scheme kept as listed', () => {
    const read = (value: string) =>
      validateEnvironment({ COMPANY_EINVOICE_ADDRESS: value }).COMPANY_EINVOICE_ADDRESS;
    expect(read('0088:5790000435975')).toBe('0088:5790000435975');
    expect(read('9930:de123456789')).toBe('9930:de123456789');
    expect(read('em:Billing@Example.com')).toBe('EM:Billing@Example.com');
    expect(read(`EM:${'a'.repeat(254)}`)).toBe(`EM:${'a'.repeat(254)}`);
    expect(read('')).toBeUndefined();
  });

  it('names every bad variable at once', () => {
    expect(() => validateEnvironment({ PORT: 'x', DEFAULT_CURRENCY: 'ZZZ' })).toThrow(
      /PORT.*DEFAULT_CURRENCY/,
    );
  });

  it('reads comma-separated keys', () => {
    const env = validateEnvironment({ API_KEYS: ' key-one-0123456789 ,key-two-0123456789' });
    expect(splitKeys(env.API_KEYS)).toEqual(['key-one-0123456789', 'key-two-0123456789']);
  });

  it('refuses a key that is both full and read-only', () => {
    const key = 'same-key-0123456789';
    expect(() => validateEnvironment({ API_KEYS: key, API_KEYS_READONLY: key })).toThrow(
      'API_KEYS_READONLY',
    );
  });

  it('takes an empty variable as unset', () => {
    expect(validateEnvironment({ PORT: '', API_KEYS: '' }).PORT).toBeUndefined();
  });

  it('refuses to start open in production, naming API_KEYS', () => {
    expect(() => validateEnvironment({ NODE_ENV: 'production' })).toThrow('API_KEYS');
  });

  it.each([
    { NODE_ENV: 'production', AUTH_DISABLED: 'true' },
    { NODE_ENV: 'production', API_KEYS: 'key-one-0123456789' },
    { NODE_ENV: 'production', API_KEYS_READONLY: 'key-one-0123456789' },
    { NODE_ENV: 'development' },
  ])('starts with %p', (environment) => {
    expect(() => validateEnvironment(environment)).not.toThrow();
  });
});
