import { DocumentView } from '../documents/pdf/document-view';
import { composeDocumentMail, escapeHtml, fileNameOf, oneLine } from './document-mail';

const ISSUER = { name: 'Acme Ltd', address: '1 High St', email: 'billing@acme.example', taxId: '' };
const ENVELOPE = {
  from: 'Acme Ltd <billing@acme.example>',
  to: 'ada@example.com',
  messageId: '<1@acme>',
};

function view(overrides: Partial<DocumentView> = {}): DocumentView {
  return {
    kind: 'invoice',
    number: 'INV-1',
    description: '',
    issueDate: '2026-04-01',
    dueDate: '2026-04-30',
    currency: 'EUR',
    customer: { name: 'Ada', phone: '', address: '' },
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

describe('composeDocumentMail', () => {
  it('names the kind, number and company in the subject and attaches <number>.pdf', () => {
    const pdf = Buffer.from('%PDF-1.7');
    const mail = composeDocumentMail(view(), ISSUER, pdf, ENVELOPE);
    expect(mail).toMatchObject({
      from: ENVELOPE.from,
      to: 'ada@example.com',
      messageId: '<1@acme>',
      subject: 'Invoice INV-1 from Acme Ltd',
      attachments: [{ filename: 'INV-1.pdf', content: pdf, contentType: 'application/pdf' }],
    });
  });

  it('shows the totals, the amount paid, the balance and the due date in both bodies', () => {
    const mail = composeDocumentMail(view(), ISSUER, Buffer.alloc(0), ENVELOPE);
    for (const body of [mail.text, mail.html] as string[]) {
      for (const shown of ['21.00 EUR', 'Tax (10%)', '2.10 EUR', '23.10 EUR', '3.10 EUR']) {
        expect(body).toContain(shown);
      }
      expect(body).toContain('20.00 EUR');
      expect(body).toContain('2026-04-30');
    }
  });

  it('shows no payment lines for an estimate', () => {
    const estimate = view({
      kind: 'estimate',
      number: 'EST-1',
      amountPaid: undefined,
      balanceDue: undefined,
    });
    const mail = composeDocumentMail(estimate, ISSUER, Buffer.alloc(0), ENVELOPE);
    expect(mail.subject).toBe('Estimate EST-1 from Acme Ltd');
    expect(mail.text).not.toContain('Balance due');
    expect(mail.text).not.toContain('Amount paid');
  });

  it('writes every value into the HTML as text, never as markup', () => {
    const hostile = view({
      number: '<img src=x onerror=alert(1)>',
      customer: { name: 'Tom & "Jerry" <script>', phone: '', address: '' },
    });
    const mail = composeDocumentMail(
      hostile,
      { ...ISSUER, name: "O'Brien <Ltd>" },
      Buffer.alloc(0),
      ENVELOPE,
    );
    const html = mail.html as string;
    expect(html).not.toMatch(/<(img|script)|<Ltd>/);
    expect(html).toContain('Tom &amp; &quot;Jerry&quot; &lt;script&gt;');
    expect(html).toContain('O&#39;Brien &lt;Ltd&gt;');
    expect(mail.text).toContain('Tom & "Jerry" <script>');
  });

  it('keeps the subject on one line and the file name free of separators', () => {
    const mail = composeDocumentMail(
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
