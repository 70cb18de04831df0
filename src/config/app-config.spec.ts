import 'reflect-metadata';
import { ConfigService } from '@nestjs/config';
import { DOCUMENT_LOCALES } from '../document-vocabulary/document-locale';
import { paymentTermsIn } from '../document-vocabulary/issuer';
import { AppConfig } from './app-config';
import { EnvironmentVariables, validateEnvironment } from './environment';

function configOf(raw: Record<string, string>): AppConfig {
  const env = validateEnvironment(raw);
  return new AppConfig(new ConfigService<EnvironmentVariables, true>(env));
}

describe('AppConfig: the issuer and the document locale', () => {
  it('answers every issuer field, "" where a setting is not set, and prints in en', () => {
    const config = configOf({});
    expect(config.company).toEqual({
      name: 'Invoicing',
      address: '',
      country: '',
      einvoiceAddress: '',
      email: '',
      taxId: '',
      phone: '',
      website: '',
      registration: '',
      bankAccount: '',
      bankBic: '',
      bankName: '',
      paymentTerms: '',
      paymentTermsByLocale: { en: '', de: '', fr: '', es: '' },
    });
    expect(config.documentLocale).toBe('en');
  });

  it('reads each issuer setting and DOCUMENT_LOCALE', () => {
    const config = configOf({
      COMPANY_NAME: 'Acme GmbH',
      COMPANY_ADDRESS: 'Hauptstraße 1, Berlin',
      COMPANY_COUNTRY: 'de',
      COMPANY_EINVOICE_ADDRESS: '0204:991-01234-56',
      COMPANY_EMAIL: 'billing@example.com',
      COMPANY_TAX_ID: 'DE123456789',
      COMPANY_PHONE: '+49 30 1234567',
      COMPANY_WEBSITE: 'https://example.com',
      COMPANY_REGISTRATION: 'Amtsgericht Berlin HRB 12345',
      COMPANY_BANK_ACCOUNT: 'DE89 3704 0044 0532 0130 00',
      COMPANY_BANK_BIC: 'COBADEFFXXX',
      COMPANY_BANK_NAME: 'Commerzbank',
      PAYMENT_TERMS: 'Payable within 30 days',
      PAYMENT_TERMS_DE: 'Zahlbar innerhalb von 30 Tagen',
      PAYMENT_TERMS_FR: 'Payable sous 30 jours',
      DOCUMENT_LOCALE: 'de',
    });
    expect(config.company).toEqual({
      name: 'Acme GmbH',
      address: 'Hauptstraße 1, Berlin',
      // Upper case, as a client's country is kept.
      country: 'DE',
      einvoiceAddress: '0204:991-01234-56',
      email: 'billing@example.com',
      taxId: 'DE123456789',
      phone: '+49 30 1234567',
      website: 'https://example.com',
      registration: 'Amtsgericht Berlin HRB 12345',
      bankAccount: 'DE89 3704 0044 0532 0130 00',
      bankBic: 'COBADEFFXXX',
      bankName: 'Commerzbank',
      paymentTerms: 'Payable within 30 days',
      paymentTermsByLocale: {
        en: '',
        de: 'Zahlbar innerhalb von 30 Tagen',
        fr: 'Payable sous 30 jours',
        es: '',
      },
    });
    expect(config.documentLocale).toBe('de');
  });

  it('answers the payment terms of each locale, PAYMENT_TERMS where it has none of its own', () => {
    const issuer = configOf({
      PAYMENT_TERMS: 'Payable within 30 days',
      PAYMENT_TERMS_DE: 'Zahlbar innerhalb von 30 Tagen',
      // Empty is unset: the default applies.
      PAYMENT_TERMS_ES: '',
    }).company;
    expect(DOCUMENT_LOCALES.map((locale) => paymentTermsIn(issuer, locale))).toEqual([
      'Payable within 30 days',
      'Zahlbar innerhalb von 30 Tagen',
      'Payable within 30 days',
      'Payable within 30 days',
    ]);
    const onlyGerman = configOf({ PAYMENT_TERMS_DE: 'Sofort zahlbar' }).company;
    expect(paymentTermsIn(onlyGerman, 'de')).toBe('Sofort zahlbar');
    expect(paymentTermsIn(onlyGerman, 'en')).toBe('');
  });
});

describe('AppConfig: the outbox lease', () => {
  it('is two minutes unless set', () => {
    expect(configOf({}).outboxLeaseMs).toBe(120_000);
    expect(configOf({ OUTBOX_LEASE_MS: '5000', WEBHOOK_TIMEOUT_MS: '2500' }).outboxLeaseMs).toBe(
      5000,
    );
  });

  it('is twice WEBHOOK_TIMEOUT_MS when that is longer than two minutes', () => {
    expect(configOf({ WEBHOOK_TIMEOUT_MS: '90000' }).outboxLeaseMs).toBe(180_000);
  });
});
