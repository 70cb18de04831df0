import mjml2html from 'mjml';
import {
  coffeeLine,
  germanMixedRateInvoice,
  testIssuer,
} from '../../test/factories/document-views';
import { Issuer } from '../document-vocabulary/issuer';
import { DocumentView } from '../documents/document-view';
import {
  composeDocumentMail,
  documentMailMjml,
  escapeHtml,
  fileNameOf,
  MAIL_LINE_LIMIT,
  oneLine,
} from './document-mail';

const ISSUER: Issuer = {
  name: 'Acme Ltd',
  address: '1 High St\nLondon',
  email: 'billing@acme.example',
  taxId: 'GB123456789',
  phone: '+44 20 7946 0000',
  website: 'https://acme.example',
  registration: 'Companies House 01234567',
  bankAccount: 'GB33 BUKB 2020 1555 5555 55',
  bankBic: 'BUKBGB22',
  bankName: 'Barclays',
  paymentTerms: 'Payable within 30 days',
};
const BARE_ISSUER: Issuer = testIssuer({ name: ISSUER.name, address: '', email: '', taxId: '' });
const ENVELOPE = {
  from: 'Acme Ltd <billing@acme.example>',
  to: 'ada@example.com',
  messageId: '<1@acme>',
};
const NBSP = '\u00a0';
const NARROW_NBSP = '\u202f';

function view(overrides: Partial<DocumentView> = {}): DocumentView {
  return {
    kind: 'invoice',
    number: 'INV-1',
    description: '',
    issueDate: '2026-04-01',
    dueDate: '2026-04-30',
    currency: 'EUR',
    customer: { name: 'Ada', phone: '', address: '', taxId: '', country: '' },
    lines: [{ description: 'Design', quantity: '2', rate: '10.50', amount: '21.00' }],
    subTotal: '21.00',
    taxRate: '10',
    taxAmount: '2.10',
    total: '23.10',
    amountPaid: '3.10',
    balanceDue: '20.00',
    note: '',
    ...overrides,
  };
}

function manyLines(count: number): DocumentView['lines'] {
  return Array.from({ length: count }, (_, index) => ({
    description: `Line ${index + 1}`,
    quantity: '1',
    rate: '1.00',
    amount: '1.00',
  }));
}

/** An invoice with amounts large enough to group, in `locale`. */
function bigInvoice(locale: DocumentView['locale']): DocumentView {
  return view({
    locale,
    issueDate: '2026-11-26',
    dueDate: '2026-12-24',
    subTotal: '14570949430.96',
    taxRate: '8.25',
    taxAmount: '1202103327.05',
    total: '15773052758.01',
    amountPaid: '1234.50',
    balanceDue: '15773051523.51',
    customer: { name: 'Ada', phone: '', address: '', taxId: 'FR40303265045', country: 'DE' },
  });
}

/** A German invoice: hours, line discounts, two rates, a reverse-charge line, a period. */
function mixedInvoice(): DocumentView {
  return view(germanMixedRateInvoice());
}

async function compose(document: DocumentView, issuer: Issuer = ISSUER) {
  const mail = await composeDocumentMail(document, issuer, Buffer.alloc(0), ENVELOPE);
  return {
    mail,
    subject: mail.subject as string,
    text: mail.text as string,
    html: mail.html as string,
  };
}

/**
 * What a reader of the HTML part sees: its body's text without the hidden preview (the inbox
 * list's excerpt), tags dropped and entities decoded.
 */
function visibleText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  return body
    .replace(/<div style="display:none;[^"]*">[^<]*<\/div>/, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<br \/>/g, '\n')
    .replace(/<\/?bdi>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name] ?? '',
    );
}

/** Both parts show each of `shown`: the text as it is, the HTML as escaped text. */
function expectInBothParts(parts: { text: string; html: string }, shown: string[]): void {
  // An isolated name or value (<bdi>) reads as its text.
  const html = parts.html.replace(/<\/?bdi>/g, '');
  for (const value of shown) {
    expect(parts.text).toContain(value);
    expect(html).toContain(escapeHtml(value));
  }
}

describe('composeDocumentMail', () => {
  it('names the kind, number and company in the subject and attaches <number>.pdf', async () => {
    const pdf = Buffer.from('%PDF-1.7');
    const mail = await composeDocumentMail(view(), ISSUER, pdf, ENVELOPE);
    expect(mail).toMatchObject({
      from: ENVELOPE.from,
      to: 'ada@example.com',
      messageId: '<1@acme>',
      subject: 'Invoice INV-1 from Acme Ltd',
      attachments: [{ filename: 'INV-1.pdf', content: pdf, contentType: 'application/pdf' }],
    });
  });

  it('shows the totals, the amount paid, the balance and the due date in both bodies', async () => {
    const parts = await compose(view());
    expectInBothParts(parts, [
      'Dear Ada,',
      'Please find attached invoice INV-1 from Acme Ltd.',
      'Please pay 20.00 EUR by April 30, 2026.',
      'Invoice number',
      'Issue date',
      'April 1, 2026',
      'Due date',
      'April 30, 2026',
      'Sub-total',
      '21.00 EUR',
      'Tax (10%)',
      '2.10 EUR',
      'Total',
      '23.10 EUR',
      'Amount paid',
      '3.10 EUR',
      'Balance due',
      '20.00 EUR',
    ]);
  });

  it('names the buyer reference and the purchase order in both parts, when the invoice has them', async () => {
    const { text, html } = await compose(
      view({ locale: 'de', buyerReference: '04011000-12345-34', orderReference: 'PO <7>' }),
    );
    for (const part of [text, visibleText(html)]) {
      expect(part).toContain('Käuferreferenz');
      expect(part).toContain('04011000-12345-34');
      expect(part).toContain('Bestellnummer');
      expect(part).toContain('PO <7>');
    }
    expect(html).not.toContain('PO <7>');
    const plain = await compose(view());
    expect(plain.text).not.toMatch(/Buyer reference|Purchase order/);
  });

  it.each([
    {
      locale: 'en',
      shown: [
        'Invoice INV-1 from Acme Ltd',
        'Dear Ada,',
        'Please find attached invoice INV-1 from Acme Ltd.',
        'Please pay 15,773,051,523.51 EUR by December 24, 2026.',
        'Invoice number',
        'November 26, 2026',
        'Sub-total',
        '14,570,949,430.96 EUR',
        'Tax (8.25%)',
        '1,202,103,327.05 EUR',
        '15,773,052,758.01 EUR',
        'Amount paid',
        '1,234.50 EUR',
        'Bill to',
        'VAT number',
        'FR40303265045',
        'Germany',
        'Kind regards,',
        'Tax ID',
        'IBAN / Account',
      ],
    },
    {
      locale: 'de',
      shown: [
        'Rechnung INV-1 von Acme Ltd',
        'Guten Tag Ada,',
        'anbei erhalten Sie die Rechnung INV-1 von Acme Ltd.',
        'Bitte zahlen Sie 15.773.051.523,51 EUR bis zum 24. Dezember 2026.',
        'Rechnungsnummer',
        'Ausstellungsdatum',
        '26. November 2026',
        'Fälligkeitsdatum',
        'Zwischensumme',
        '14.570.949.430,96 EUR',
        `USt. (8,25${NBSP}%)`,
        '1.202.103.327,05 EUR',
        'Gesamtbetrag',
        '15.773.052.758,01 EUR',
        'Bereits bezahlt',
        '1.234,50 EUR',
        'Offener Betrag',
        'Deutschland',
        'Mit freundlichen Grüßen',
        'USt-IdNr.',
        'Zahlungsbedingungen',
      ],
    },
    {
      locale: 'fr',
      shown: [
        'Facture INV-1 de Acme Ltd',
        'Bonjour Ada,',
        'Veuillez trouver ci-joint la facture INV-1 de Acme Ltd.',
        `Merci de régler 15${NARROW_NBSP}773${NARROW_NBSP}051${NARROW_NBSP}523,51 EUR au plus tard le 24 décembre 2026.`,
        'Numéro de facture',
        'Date d’émission',
        '26 novembre 2026',
        'Date d’échéance',
        'Sous-total',
        `14${NARROW_NBSP}570${NARROW_NBSP}949${NARROW_NBSP}430,96 EUR`,
        `TVA (8,25${NARROW_NBSP}%)`,
        `1${NARROW_NBSP}234,50 EUR`,
        'Solde dû',
        'Allemagne',
        'Cordialement,',
        'N° TVA',
      ],
    },
    {
      locale: 'es',
      shown: [
        'Factura INV-1 de Acme Ltd',
        'Estimado/a Ada:',
        'Le adjuntamos la factura INV-1 de Acme Ltd.',
        'Le rogamos que abone 15.773.051.523,51 EUR a más tardar el 24 de diciembre de 2026.',
        'Número de factura',
        'Fecha de emisión',
        '26 de noviembre de 2026',
        'Fecha de vencimiento',
        '14.570.949.430,96 EUR',
        `IVA (8,25${NBSP}%)`,
        // es groups from five digits on.
        '1234,50 EUR',
        'Saldo pendiente',
        'Alemania',
        'Atentamente,',
        'NIF',
      ],
    },
  ] as const)(
    'writes an invoice in $locale: labels, grouped amounts, dates',
    async ({ locale, shown }) => {
      const parts = await compose(bigInvoice(locale));
      expect(parts.subject).toBe(shown[0]);
      expectInBothParts(parts, shown.slice(1));
      expect(parts.html).toMatch(new RegExp(`<html lang="${locale}"`));
    },
  );

  it('prints a view queued before locales existed in English, without the newer fields', async () => {
    const older = view() as unknown as Record<string, unknown>;
    older.customer = { name: 'Ada', phone: '', address: '' };
    const parts = await compose(older as unknown as DocumentView);
    expect(parts.subject).toBe('Invoice INV-1 from Acme Ltd');
    expect(parts.text).not.toMatch(/VAT number|Country/);
    expect(parts.html).toMatch(/<html lang="en"/);
  });

  it('says a paid invoice is paid, and asks for nothing', async () => {
    for (const paid of [
      view({ mark: 'paid', amountPaid: '23.10', balanceDue: '0.00' }),
      view({ amountPaid: '23.10', balanceDue: '0.00' }),
    ]) {
      const parts = await compose(paid);
      expectInBothParts(parts, ['This invoice has been paid in full. Thank you!', '0.00 EUR']);
      expect(parts.text).not.toContain('Please pay');
    }
    const german = await compose(view({ locale: 'de', mark: 'paid', balanceDue: '0.00' }));
    expectInBothParts(german, [
      'Rechnung INV-1 · BEZAHLT',
      'Diese Rechnung ist vollständig bezahlt.',
    ]);
  });

  it('marks a void invoice void, and asks for nothing', async () => {
    const parts = await compose(view({ mark: 'void' }));
    expectInBothParts(parts, [
      'Invoice INV-1 · VOID',
      'This invoice has been voided: nothing is due.',
    ]);
    expect(parts.text).not.toMatch(/Please pay|paid in full/);
    const french = await compose(view({ locale: 'fr', mark: 'void' }));
    expectInBothParts(french, ['Facture INV-1 · ANNULÉE', 'Cette facture a été annulée']);
  });

  it('names what settled an invoice: "paid and credited", and no thanks for a payment not made', async () => {
    const credited = view({
      amountPaid: '23.10',
      balanceDue: '0.00',
      ledger: [{ kind: 'credit', date: '2026-04-02', amount: '23.10', reference: 'CN-1' }],
    });
    const parts = await compose(credited);
    expectInBothParts(parts, ['Paid and credited', 'Nothing is left to pay on this invoice.']);
    for (const body of [parts.text, visibleText(parts.html)]) {
      expect(body).not.toMatch(/Amount paid|paid in full|Please pay|GB33|Payable within/);
    }
  });

  it('gives a void invoice’s reason, and no bank details or terms on a paid or void one', async () => {
    for (const settled of [
      view({ mark: 'void', voidReason: 'Issued twice' }),
      view({ mark: 'paid', amountPaid: '0.00', balanceDue: '23.10' }),
    ]) {
      const parts = await compose(settled);
      for (const body of [parts.text, visibleText(parts.html)]) {
        expect(body).not.toMatch(/GB33|BUKBGB22|Barclays|Payable within|Balance due/);
      }
    }
    expectInBothParts(await compose(view({ mark: 'void', voidReason: 'Issued twice' })), [
      'Reason for voiding',
      'Issued twice',
    ]);
    // Paid by hand: the balance is 0, and what settled the rest is said.
    expectInBothParts(
      await compose(view({ mark: 'paid', amountPaid: '0.00', balanceDue: '23.10' })),
      ['Settled without a recorded payment', 'Balance', '0.00 EUR'],
    );
  });

  it('says until when an estimate holds, and shows no payment lines', async () => {
    const estimate = view({
      kind: 'estimate',
      number: 'EST-1',
      dueDate: '2026-05-31',
      amountPaid: undefined,
      balanceDue: undefined,
    });
    const parts = await compose(estimate);
    expect(parts.subject).toBe('Estimate EST-1 from Acme Ltd');
    expectInBothParts(parts, [
      'Please find attached estimate EST-1 from Acme Ltd.',
      'This estimate is valid until May 31, 2026.',
      'Valid until',
      'Estimate number',
      'Prepared for',
      '23.10 EUR',
    ]);
    for (const body of [parts.text, parts.html]) {
      expect(body).not.toMatch(/Balance due|Amount paid|Due date|Please pay/);
      // An estimate asks for no payment: no bank account, no payment terms.
      expect(body).not.toMatch(/GB33|BUKBGB22|Barclays|Payable within|Payment terms/);
    }
    const spanish = await compose({ ...estimate, locale: 'es' });
    expect(spanish.subject).toBe('Presupuesto EST-1 de Acme Ltd');
    expectInBothParts(spanish, [
      'Le adjuntamos el presupuesto EST-1 de Acme Ltd.',
      'Este presupuesto es válido hasta el 31 de mayo de 2026.',
      'Válido hasta',
    ]);
  });

  it('names the invoice a credit note corrects, and why', async () => {
    const creditNote = view({
      kind: 'credit_note',
      number: 'CN-1',
      dueDate: undefined,
      corrects: 'INV-7',
      correctsDate: '2026-03-15',
      reason: 'Returned goods',
      refunded: '5.00',
      amountPaid: undefined,
      balanceDue: undefined,
    });
    const parts = await compose(creditNote);
    expect(parts.subject).toBe('Credit note CN-1 from Acme Ltd');
    expectInBothParts(parts, [
      'Please find attached credit note CN-1 from Acme Ltd.',
      'Credit note number',
      'Corrects invoice',
      'INV-7',
      'Invoice date',
      'March 15, 2026',
      'Reason',
      'Returned goods',
      'Credited to',
      'Refunded on April 1, 2026',
      '5.00 EUR',
    ]);
    expect(parts.text).not.toMatch(/Due date|Please pay|paid in full|valid until/i);
    const french = await compose({ ...creditNote, locale: 'fr' });
    expect(french.subject).toBe('Avoir CN-1 de Acme Ltd');
    expectInBothParts(french, [
      'Veuillez trouver ci-joint l’avoir CN-1 de Acme Ltd.',
      'Corrige la facture',
      'Motif',
    ]);
  });

  it.each([
    [10, 'en', 'is 10 days overdue (due April 30, 2026). 20.00 EUR is still owed.'],
    [1, 'en', 'is 1 day overdue (due April 30, 2026)'],
    [0, 'en', 'is due today (April 30, 2026)'],
    [-1, 'en', 'is due in 1 day, on April 30, 2026'],
    [-3, 'en', 'is due in 3 days, on April 30, 2026'],
    [
      1,
      'de',
      'Sie ist seit 1 Tag überfällig (fällig am 30. April 2026). Offen sind noch 20,00 EUR.',
    ],
    [7, 'de', 'Sie ist seit 7 Tagen überfällig'],
    [-3, 'fr', 'arrive à échéance dans 3 jours, le 30 avril 2026'],
    [14, 'es', 'lleva 14 días vencida (venció el 30 de abril de 2026)'],
  ] as const)('reminds %i day(s) from the due date in %s', async (daysOverdue, locale, says) => {
    const parts = await compose(view({ locale, reminder: { daysOverdue } }));
    expectInBothParts(parts, [says]);
    // The reminder says the balance and the due date itself: no second pay-by line.
    expect(parts.text).not.toMatch(/Please pay|Bitte zahlen|Merci de régler|Le rogamos/);
  });

  it('prefixes a reminder’s subject in its language', async () => {
    const reminder = { reminder: { daysOverdue: 1 } };
    expect((await compose(view(reminder))).subject).toBe('Reminder: Invoice INV-1 from Acme Ltd');
    expect((await compose(view({ ...reminder, locale: 'de' }))).subject).toBe(
      'Zahlungserinnerung: Rechnung INV-1 von Acme Ltd',
    );
    expect((await compose(view({ ...reminder, locale: 'fr' }))).subject).toBe(
      `Rappel${NBSP}: Facture INV-1 de Acme Ltd`,
    );
  });

  it('shows the issuer’s details that are set, and leaves out the others', async () => {
    const parts = await compose(view());
    expectInBothParts(parts, [
      'Acme Ltd',
      '1 High St',
      'London',
      'billing@acme.example',
      '+44 20 7946 0000',
      'https://acme.example',
      'GB123456789',
      'Companies House 01234567',
      'GB33 BUKB 2020 1555 5555 55',
      'BUKBGB22',
      'Barclays',
      'Payable within 30 days',
    ]);
    const bare = await compose(view(), BARE_ISSUER);
    for (const body of [bare.text, visibleText(bare.html)]) {
      expect(body).toContain('Acme Ltd');
      expect(body).not.toMatch(/E-mail|Phone|Website|Tax ID|Registration|IBAN|BIC|Bank|terms/);
    }
  });

  it('carries the same figures, dates and sentences in the HTML part as in the text part', async () => {
    for (const locale of ['en', 'de', 'fr', 'es'] as const) {
      for (const document of [
        bigInvoice(locale),
        view({ locale, reminder: { daysOverdue: 3 } }),
        { ...mixedInvoice(), locale },
      ]) {
        const { text, html } = await compose(document);
        const visible = visibleText(html).replace(/[ \t\r\n]+/g, ' ');
        for (const line of text.split('\n').filter((shown) => shown !== '')) {
          const [label, value = ''] = line.split(/:\s+(?=\S)/);
          expect(visible).toContain(label.trim().replace(/[ \t\r\n]+/g, ' '));
          expect(visible).toContain(value.trim());
        }
        const figures = (body: string) => (body.match(/-?\d[\d.,\u202f]*\d (EUR)/g) ?? []).sort();
        expect(figures(visible)).toEqual(figures(text));
      }
    }
  });

  it('writes every value into the HTML as text, never as markup', async () => {
    const hostile = view({
      number: '<img src=x onerror=alert(1)>',
      reason: '</td><script>alert(2)</script>',
      customer: {
        name: 'Tom & "Jerry" <script>',
        phone: '',
        address: '',
        taxId: '<b>vat</b>',
        country: '<i>',
      },
    });
    const { text, html } = await compose(hostile, {
      ...ISSUER,
      name: "O'Brien <Ltd>",
      website: 'javascript:alert(3)"><a href="x',
      paymentTerms: '<mj-raw><script>alert(4)</script></mj-raw>',
    });
    expect(html).not.toMatch(/<(img|script|a |b>|i>|mj-)|<Ltd>|<\/td><script/);
    expect(html).toContain('Tom &amp; &quot;Jerry&quot; &lt;script&gt;');
    expect(html).toContain('O&#39;Brien &lt;Ltd&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('javascript:alert(3)&quot;&gt;&lt;a href=&quot;x');
    expect(text).toContain('Tom & "Jerry" <script>');
  });

  it('uses no remote image or font, and the system sans-serif', async () => {
    const { html } = await compose(bigInvoice('de'));
    expect(html).not.toMatch(/<img|<link|@import|url\(|googleapis|src=/i);
    expect(html).toContain("font-family:-apple-system, BlinkMacSystemFont, 'Segoe UI'");
    expect(html).toMatch(/font-family:[^;"]*sans-serif/);
  });

  it('isolates names and values as <bdi>, so a right-to-left name keeps its words in order', async () => {
    const name = 'שרה כהן (Sarah) GmbH';
    const parts = await compose(view({ customer: { ...view().customer, name } }));
    expect(parts.html).toContain(`Dear <bdi>${escapeHtml(name)}</bdi>,`);
    expect(parts.html).toContain(`<bdi>${escapeHtml(name)}</bdi></td>`);
    expect(parts.html).toContain('attached invoice <bdi>INV-1</bdi> from <bdi>Acme Ltd</bdi>.');
    // The plain text carries no isolation marks, and nothing but markup was added to the HTML.
    expect(parts.text).toContain(`Dear ${name},`);
    expect(parts.text).not.toMatch(/[\u2066-\u2069]/);
    expect(parts.html).not.toMatch(/[\u2066-\u2069]/);
  });

  it('writes "label : value" with a no-break space in the French plain text', async () => {
    const { text } = await compose(view({ locale: 'fr' }));
    expect(text).toMatch(/Numéro de facture\u00a0: +INV-1/);
  });

  it('right-aligns the amounts of the totals table', async () => {
    const { html } = await compose(view());
    expect(html).toMatch(
      /<td align="right"[^>]*text-align:right[^>]*><bdi>23\.10 EUR<\/bdi><\/td>/,
    );
  });

  it('is MJML that validates without errors, whatever the document', async () => {
    const documents = [
      bigInvoice('fr'),
      view({ mark: 'void' }),
      view({ kind: 'estimate', amountPaid: undefined, balanceDue: undefined }),
      view({ kind: 'credit_note', corrects: 'INV-1', reason: 'a\nb', dueDate: undefined }),
      view({ reminder: { daysOverdue: 7 }, number: '<&>' }),
      mixedInvoice(),
      view({ lines: manyLines(MAIL_LINE_LIMIT + 3) }),
    ];
    for (const document of documents) {
      for (const issuer of [ISSUER, BARE_ISSUER]) {
        const { errors } = await mjml2html(documentMailMjml(document, issuer), {
          validationLevel: 'soft',
        });
        expect(errors).toEqual([]);
      }
    }
  });

  it('lists each line: its amount, quantity and rate, and nothing more on a plain document', async () => {
    const parts = await compose(view());
    expectInBothParts(parts, ['Design', '21.00 EUR', '2 × 10.50 EUR']);
    expect(parts.text).toContain('Design: 21.00 EUR\n  2 × 10.50 EUR\n');
    expect(parts.text).not.toMatch(/Discount|Prices include|Date of supply|Service period| on /);
  });

  it('prints a German invoice’s units, discounts, taxes, breakdown and period in both bodies', async () => {
    const parts = await compose(mixedInvoice());
    const shown = [
      'Leistungszeitraum',
      '1. März 2026 – 31. März 2026',
      'Beratung',
      '256,50 EUR',
      `3${NBSP}Std. × 95,00 EUR · Rabatt (10${NBSP}%): -28,50 · USt. (19${NBSP}%)`,
      `2 × 40,00 EUR · Rabatt: -5,00 · USt. (7${NBSP}%)`,
      `1 × 500,00 EUR · USt. (0${NBSP}%, Reverse Charge)`,
      'Zwischensumme',
      '831,50 EUR',
      `Rabatt (10${NBSP}%)`,
      '-83,15 EUR',
      `USt. (19${NBSP}%) auf 230,85 EUR`,
      '43,86 EUR',
      `USt. (7${NBSP}%) auf 67,50 EUR`,
      `USt. (0${NBSP}%, Reverse Charge) auf 450,00 EUR`,
      'Steuerschuldnerschaft des Leistungsempfängers (VATEX-EU-AE)',
      'Gesamtbetrag',
      '796,94 EUR',
    ];
    expectInBothParts(parts, shown);
    // In this order in the text: dates, lines, then the totals with the exemption under its row.
    let from = parts.text.indexOf('Ausstellungsdatum');
    for (const part of shown) {
      const at = parts.text.indexOf(part, from);
      expect({ part, inOrder: at >= 0 }).toEqual({ part, inOrder: true });
      from = at + part.length;
    }
    expect(parts.text).toMatch(/auf 450,00 EUR: +0,00 EUR\n {2}Steuerschuldnerschaft/);
    expect(parts.text).toMatch(/Ausstellungsdatum: +1\. April 2026\nLeistungszeitraum: /);
    for (const body of [parts.text, visibleText(parts.html)]) {
      expect(body).not.toMatch(/\bTax\b|Discount|HUR|Reverse charge/);
    }
  });

  it('prints a date of supply, and prices that include tax as included in the gross total', async () => {
    const parts = await compose(
      view({
        supplyDate: '2026-04-03',
        pricesIncludeTax: true,
        lines: [coffeeLine()],
        subTotal: '53.50',
        discount: '0.00',
        taxBreakdown: [
          {
            name: 'VAT',
            category: 'S',
            rate: '5',
            taxableAmount: '50.95',
            taxAmount: '2.55',
            exemptionReason: '',
            exemptionCode: '',
          },
        ],
        taxAmount: '2.55',
        total: '53.50',
        amountPaid: '0.00',
        balanceDue: '53.50',
      }),
    );
    expectInBothParts(parts, [
      'Date of supply',
      'April 3, 2026',
      `2.5${NBSP}kg × 21.40 EUR`,
      'Prices include tax',
      'Incl. VAT (5%) on 50.95 EUR',
      '2.55 EUR',
    ]);
    expect(parts.text).toMatch(/\n\nPrices include tax\nSub-total: +53\.50 EUR\n/);
    expect(parts.text).toMatch(/Incl\. VAT \(5%\) on 50\.95 EUR: +2\.55 EUR\nTotal: +53\.50 EUR/);
  });

  it(`lists at most ${MAIL_LINE_LIMIT} lines and counts the rest, in the document’s language`, async () => {
    const lines = manyLines(MAIL_LINE_LIMIT + 7);
    const english = await compose(view({ lines }));
    expectInBothParts(english, [`Line ${MAIL_LINE_LIMIT}`, '7 more lines in the attached PDF.']);
    for (const body of [english.text, visibleText(english.html)]) {
      expect(body).not.toContain(`Line ${MAIL_LINE_LIMIT + 1}`);
    }
    const german = await compose(view({ locale: 'de', lines: manyLines(MAIL_LINE_LIMIT + 1) }));
    expectInBothParts(german, ['1 weitere Position finden Sie im PDF im Anhang.']);
  });

  it('keeps the subject on one line and the file name free of separators', async () => {
    const mail = await composeDocumentMail(
      view({ number: 'INV/1\r\nBcc: x' }),
      ISSUER,
      Buffer.alloc(0),
      ENVELOPE,
    );
    expect(mail.subject).toBe('Invoice INV/1 Bcc: x from Acme Ltd');
    expect(mail.attachments?.[0].filename).toBe('INV_1 Bcc_ x.pdf');
  });
});

describe('helpers', () => {
  it('escapeHtml escapes the five markup characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });

  it('oneLine turns control characters and line separators into single spaces', () => {
    expect(oneLine(' a\r\n\tb\u2028c ')).toBe('a b c');
  });

  it('fileNameOf never answers an empty name', () => {
    expect(fileNameOf('\n')).toBe('document');
    expect(fileNameOf('a\\b:c')).toBe('a_b_c');
  });
});
