import { createClient } from './factories/clients';
import {
  addCreditNote,
  CREDIT_NOTE_KEYS,
  CREDIT_NOTE_READ_KEYS,
  CREDIT_NOTE_WRITE_KEYS,
  CreditNoteOutput,
  creditNoteInput,
  CreditNoteWriteResult,
  readCreditNote,
} from './factories/credit-notes';
import {
  createInvoice,
  INVOICE_KEYS,
  InvoiceInput,
  ledgerState,
  LINE_READ_KEYS,
  payInvoice,
  plainReadLine,
  plainTaxBreakdown,
  plainTaxTerms,
  readInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  ID,
  keysOf,
  SHORT_CODE,
  TIMESTAMP,
  timeWindow,
} from './setup/expectations';
import { expectInOrder, flattened, pdfText } from './setup/pdf-text';
import { TestClock } from './setup/test-clock';

describe('Credit notes', () => {
  let test: TestApp;
  const clock = new TestClock();
  let client: string;

  beforeAll(async () => {
    test = await createTestApp({ clock });
    client = await createClient(test.http, {
      names: 'Credit Co',
      phone: '+44 20 7946 0000',
      address: '1 Credit Lane',
      tax_id: 'GB 123 4567 89',
      country: 'GB',
    });
  });

  afterEach(() => clock.setToday(new Date().toISOString().slice(0, 10)));

  afterAll(async () => {
    await test.close();
  });

  const add = (input: object) => test.http.post('/v1/credit-note/add').send(input);

  /** An invoice with a total of exactly `total` (one line, no tax unless given). */
  const invoiceOf = (total: string, input: InvoiceInput = {}) =>
    createInvoice(test.http, {
      client,
      issue_date: '2026-03-01',
      items: [{ description: 'Work', quantity: 1, rate: total }],
      ...input,
    });

  const line = (rate: string, quantity: string | number = 1) => ({
    description: 'Correction',
    quantity,
    rate,
  });

  const state = (id: string) => ledgerState(test.http, id);

  const creditNotesOf = async (invoice: string) =>
    (await test.http.get(`/v1/credit-note/all?invoice=${invoice}`).expect(200)).body as {
      data: CreditNoteOutput[];
    };

  describe('within the outstanding balance', () => {
    it('answers the credit note, its lines with amounts, and the invoice it settled', async () => {
      const invoice = await invoiceOf('100.00', { tax_rate: '20', currency: 'EUR' });
      await payInvoice(test.http, invoice.id, '20.00');
      const window = timeWindow();

      const response = await add({
        invoice: invoice.id,
        credit_note_no: '  CN-SHAPE-1 ',
        items: [line('10.00', 2), line('0.125')],
        issue_date: '2026-03-20',
        reason: ' Billed too high ',
        note: 'Credited against your balance.',
      });

      const body = expectSuccess(response) as unknown as CreditNoteWriteResult;
      expect(keysOf(body)).toEqual([...CREDIT_NOTE_WRITE_KEYS, 'status'].sort());
      const [note] = body.credit_note;
      expect(keysOf(note)).toEqual(CREDIT_NOTE_KEYS);
      // 20.00 + 0.13 = 20.13 at the invoice's 20%: tax 4.026 → 4.03, total 24.16.
      expect(note).toEqual({
        id: expect.stringMatching(ID),
        short_code: expect.stringMatching(SHORT_CODE),
        credit_note_no: 'CN-SHAPE-1',
        invoice_id: invoice.id,
        invoice_no: invoice.invoice_no,
        customer_id: client,
        customer_name: 'Credit Co',
        customer_phone: '+44 20 7946 0000',
        customer_address: '1 Credit Lane',
        customer_tax_id: 'GB 123 4567 89',
        customer_country: 'GB',
        currency: 'EUR',
        tax_rate: 20,
        tax_amount: 4.03,
        sub_total: 20.13,
        total: 24.16,
        refunded: '0.00',
        issue_date: '2026-03-20',
        reason: 'Billed too high',
        note: 'Credited against your balance.',
        ...plainTaxTerms('EUR'),
        created_at: expect.stringMatching(TIMESTAMP),
      });
      expect(window.contains(note.created_at)).toBe(true);
      expect(body.items).toEqual([
        plainReadLine(
          { description: 'Correction', quantity: 2, rate: '10.00', amount: '20.00' },
          20,
          'EUR',
        ),
        plainReadLine(
          { description: 'Correction', quantity: 1, rate: '0.125', amount: '0.13' },
          20,
          'EUR',
        ),
      ]);
      for (const item of body.items) expect(keysOf(item)).toEqual(LINE_READ_KEYS);
      expect(body.tax_breakdown).toEqual(plainTaxBreakdown(20, '20.13', '4.03'));
      expect(keysOf(body.invoice[0])).toEqual(INVOICE_KEYS);
      expect(body.invoice[0]).toMatchObject({
        id: invoice.id,
        total: 120,
        amount_paid: '44.16',
        outstanding_balance: '75.84',
        payment_status: 'Not Paid',
      });
      expect(response.text).toMatch(/"total":24\.16[,}]/);

      const detail = await readInvoice(test.http, invoice.id);
      expect(detail.payments.slice(1)).toEqual([
        {
          status: 'Credited',
          reference: expect.stringMatching(/^CRD-[0-9A-Z]{16}$/),
          amount: 24.16,
          bank: 'Others',
          payment_date: '2026-03-20',
          created_at: note.created_at,
          reason: 'Billed too high',
          credit_note_id: note.id,
        },
      ]);
      // The invoice itself is not rewritten.
      expect(detail.invoice[0]).toMatchObject({ total: 120, sub_total: 100 });
    });

    it('reads back as it was answered, with its lines and an empty send log', async () => {
      const invoice = await invoiceOf('100.00');
      const written = await addCreditNote(test.http, invoice.id, { items: [line('30.00')] });
      const read = await readCreditNote(test.http, written.credit_note[0].id);
      expect(keysOf(read)).toEqual([...CREDIT_NOTE_READ_KEYS, 'status'].sort());
      expect(read).toEqual({
        status: 'success',
        credit_note: written.credit_note,
        items: written.items,
        tax_breakdown: written.tax_breakdown,
        send_log: [],
      });
      expect(written.items).toEqual([
        plainReadLine({ description: 'Correction', quantity: 1, rate: '30.00', amount: '30.00' }),
      ]);
      expect(written.tax_breakdown).toEqual(plainTaxBreakdown(0, '30.00', '0.00'));
    });

    it('settles the balance: Paid, status paid, and no further payment', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '70.00');
      await addCreditNote(test.http, invoice.id, { items: [line('30.00')] });

      expect(await state(invoice.id)).toEqual({
        amount_paid: '100.00',
        outstanding_balance: '0.00',
        payment_status: 'Paid',
        status: 'paid',
        ledger: ['Completed 70', 'Credited 30'],
      });
      expectValidationError(
        await test.http
          .post('/v1/invoice/record-payment')
          .send({ id: invoice.id, amount_paid: '0.01', payment_date: '2026-03-10' }),
        ['amount_paid'],
      );
    });

    it('copies the client as it is now, even once archived', async () => {
      const own = await createClient(test.http, { names: 'Before Ltd' });
      const invoice = await invoiceOf('50.00', { client: own });
      await test.http.put(`/v1/client/${own}`).send({ names: 'After Ltd' }).expect(200);
      await test.http.delete(`/v1/client/${own}`).expect(200);

      const written = await addCreditNote(test.http, invoice.id, { items: [line('5.00')] });
      expect(written.credit_note[0]).toMatchObject({
        customer_id: own,
        customer_name: 'After Ltd',
      });
    });

    it('is issued today unless told, and never before its invoice', async () => {
      clock.setToday('2026-04-02');
      const invoice = await invoiceOf('50.00');
      const written = await addCreditNote(test.http, invoice.id, { items: [line('5.00')] });
      expect(written.credit_note[0].issue_date).toBe('2026-04-02');

      const early = await add(creditNoteInput(invoice.id, { issue_date: '2026-02-28' }));
      expectValidationError(early, ['issue_date']);
      await addCreditNote(test.http, invoice.id, { issue_date: '2026-03-01' });
    });

    it('takes refund as a JSON boolean or True/False in any case', async () => {
      const invoice = await invoiceOf('100.00');
      for (const refund of [false, 'false', 'FALSE', 'True', true]) {
        await addCreditNote(test.http, invoice.id, { items: [line('1.00')], refund });
      }
      expectValidationError(await add(creditNoteInput(invoice.id, { refund: 'yes' })), ['refund']);
      expect((await creditNotesOf(invoice.id)).data).toHaveLength(5);
    });
  });

  describe('with refund: true', () => {
    it('on a paid invoice, refunds the part above the balance, then credits it', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '100.00');

      const written = await addCreditNote(test.http, invoice.id, {
        items: [line('30.00')],
        refund: true,
        reason: 'Returned one unit',
      });

      expect(written.credit_note[0]).toMatchObject({ total: 30, refunded: '30.00' });
      expect(written.invoice[0]).toMatchObject({
        amount_paid: '100.00',
        outstanding_balance: '0.00',
        payment_status: 'Paid',
      });
      const detail = await readInvoice(test.http, invoice.id);
      expect(
        detail.payments.map((entry) => [entry.status, entry.amount, entry.credit_note_id]),
      ).toEqual([
        ['Completed', 100, ''],
        ['Refunded', 30, written.credit_note[0].id],
        ['Credited', 30, written.credit_note[0].id],
      ]);
      // 70.00 is still held: a refund of more is refused.
      expectValidationError(
        await test.http
          .post('/v1/invoice/refund')
          .send({ id: invoice.id, amount: '70.01', refund_date: '2026-03-10' }),
        ['amount'],
      );
    });

    it('refunds only what the balance does not absorb', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '90.00');
      const written = await addCreditNote(test.http, invoice.id, {
        items: [line('30.00')],
        refund: true,
      });
      expect(written.credit_note[0].refunded).toBe('20.00');
      expect((await state(invoice.id)).ledger).toEqual([
        'Completed 90',
        'Refunded 20',
        'Credited 30',
      ]);
    });
  });

  describe('refused', () => {
    it('over the outstanding balance without refund: 422 naming items, nothing written', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '80.00');
      const response = await add(creditNoteInput(invoice.id, { items: [line('20.01')] }));
      expectValidationError(response, ['items']);
      expect(response.body).toMatchObject({
        message: "The credit note's total exceeds the outstanding balance of 20.00",
      });
      expect((await state(invoice.id)).ledger).toEqual(['Completed 80']);
      expect((await creditNotesOf(invoice.id)).data).toEqual([]);
    });

    it('over the invoice total less earlier credit notes, refund or not: 422 naming items', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '100.00');
      await addCreditNote(test.http, invoice.id, { items: [line('60.00')], refund: true });
      await addCreditNote(test.http, invoice.id, { items: [line('30.00')], refund: true });

      const over = await add(creditNoteInput(invoice.id, { items: [line('10.01')], refund: true }));
      expectValidationError(over, ['items']);
      expect(over.body).toMatchObject({
        errors: {
          items: [
            'the credit note’s total 10.01 exceeds the invoice’s total less its earlier credit notes, 10.00',
          ],
        },
      });
      await addCreditNote(test.http, invoice.id, { items: [line('10.00')], refund: true });
      expect(await state(invoice.id)).toMatchObject({
        amount_paid: '100.00',
        ledger: [
          'Completed 100',
          'Refunded 60',
          'Credited 60',
          'Refunded 30',
          'Credited 30',
          'Refunded 10',
          'Credited 10',
        ],
      });
      // Credited in full: nothing is held, so it can be voided.
      await test.http.post(`/v1/invoice/${invoice.id}/void`).send({}).expect(200);
    });

    it('a duplicate number: 409, for good and across invoices', async () => {
      const first = await invoiceOf('100.00');
      const second = await invoiceOf('100.00');
      await addCreditNote(test.http, first.id, { credit_note_no: 'CN-DUP-1' });
      const response = await add(creditNoteInput(second.id, { credit_note_no: ' CN-DUP-1' }));
      expectError(response, 409);
      expect(response.body).toMatchObject({
        message: 'Credit note number CN-DUP-1 is already in use',
        errors: { credit_note_no: ['credit_note_no is already used by another credit note'] },
      });
      expect((await state(second.id)).ledger).toEqual([]);
      // The invoice it corrects archived: the credit note stays, and so does its number.
      await test.http.delete(`/v1/invoice/${first.id}`).expect(200);
      expectError(await add(creditNoteInput(second.id, { credit_note_no: 'CN-DUP-1' })), 409);
      expect((await creditNotesOf(first.id)).data.map((note) => note.credit_note_no)).toEqual([
        'CN-DUP-1',
      ]);
    });

    it('an unknown or archived invoice: 422 naming invoice', async () => {
      expectValidationError(await add(creditNoteInput('999999')), ['invoice']);
      const archived = await invoiceOf('10.00');
      await test.http.delete(`/v1/invoice/${archived.id}`).expect(200);
      expectValidationError(await add(creditNoteInput(archived.id)), ['invoice']);
    });

    it('a void invoice: 409', async () => {
      const invoice = await invoiceOf('10.00');
      await test.http.post(`/v1/invoice/${invoice.id}/void`).send({}).expect(200);
      expectError(await add(creditNoteInput(invoice.id, { items: [line('1.00')] })), 409);
    });

    it('a total of zero, missing fields, malformed lines', async () => {
      const invoice = await invoiceOf('10.00');
      expectValidationError(await add(creditNoteInput(invoice.id, { items: [line('0')] })), [
        'items',
      ]);
      expectValidationError(await add({}), ['invoice', 'items']);
      expectValidationError(await add(creditNoteInput(invoice.id, { items: [] })), ['items']);
      expectValidationError(
        await add(
          creditNoteInput(invoice.id, { items: [{ description: 'x', quantity: 0, rate: '1' }] }),
        ),
        ['items.0.quantity'],
      );
      expectValidationError(await add(creditNoteInput(invoice.id, { credit_note_no: '' })), [
        'credit_note_no',
      ]);
      expectValidationError(
        await add(creditNoteInput(invoice.id, { credit_note_no: 'N'.repeat(65) })),
        ['credit_note_no'],
      );
      expect((await creditNotesOf(invoice.id)).data).toEqual([]);
    });
  });

  describe('rounding in the invoice currency', () => {
    it('JPY: no minor digits, each line and the tax rounded half away from zero', async () => {
      const invoice = await invoiceOf('100000', { currency: 'JPY', tax_rate: '10' });
      const written = await addCreditNote(test.http, invoice.id, {
        items: [line('333.5', 3), line('0.5')],
      });
      // 1000.5 → 1001, 0.5 → 1; sub-total 1002, tax 100.2 → 100, total 1102.
      expect(written.items.map((item) => item.amount)).toEqual(['1001', '1']);
      expect(written.credit_note[0]).toMatchObject({
        sub_total: 1002,
        tax_amount: 100,
        total: 1102,
        refunded: '0',
      });
      expect(written.invoice[0]).toMatchObject({
        amount_paid: '1102',
        outstanding_balance: '108898',
      });
    });

    it('KWD: three minor digits', async () => {
      const invoice = await invoiceOf('50.000', { currency: 'KWD', tax_rate: '5' });
      const written = await addCreditNote(test.http, invoice.id, {
        items: [line('1.2345', 3), line('0.0005')],
      });
      // 3.7035 → 3.704 (half away from zero), 0.0005 → 0.001; 3.705 × 5% = 0.18525 → 0.185.
      expect(written.items.map((item) => item.amount)).toEqual(['3.704', '0.001']);
      expect(written.credit_note[0]).toMatchObject({
        sub_total: 3.705,
        tax_amount: 0.185,
        total: 3.89,
        refunded: '0.000',
      });
      expect(written.invoice[0]).toMatchObject({
        amount_paid: '3.890',
        outstanding_balance: '48.610',
      });
    });
  });

  describe('lists, reads, PDF and send', () => {
    let notes: CreditNoteOutput[];
    let otherClient: string;
    let invoiceA: string;

    beforeAll(async () => {
      otherClient = await createClient(test.http, { names: 'Other client' });
      invoiceA = (await invoiceOf('100.00')).id;
      const invoiceB = (await invoiceOf('100.00', { client: otherClient })).id;
      notes = [
        (await addCreditNote(test.http, invoiceA, { issue_date: '2026-03-05' })).credit_note[0],
        (await addCreditNote(test.http, invoiceB, { issue_date: '2026-03-10' })).credit_note[0],
        (await addCreditNote(test.http, invoiceA, { issue_date: '2026-03-15' })).credit_note[0],
      ];
    });

    const listed = async (query: string) =>
      (await test.http.get(`/v1/credit-note/all${query}`).expect(200)).body as {
        data: CreditNoteOutput[];
        meta?: unknown;
      };

    it('filters by invoice, client and issue date, oldest first', async () => {
      const ids = (data: CreditNoteOutput[]) => data.map((note) => note.id);
      expect(ids((await listed(`?invoice=${invoiceA}`)).data)).toEqual([notes[0].id, notes[2].id]);
      expect(ids((await listed(`?client=${otherClient}`)).data)).toEqual([notes[1].id]);
      expect(
        ids((await listed(`?invoice=${invoiceA}&from=2026-03-06&to=2026-03-15`)).data),
      ).toEqual([notes[2].id]);
      expect((await listed('?invoice=999999')).data).toEqual([]);
      const all = await listed('');
      expect(all.data.map((note) => note.id)).toEqual(
        [...all.data.map((note) => note.id)].sort((a, b) => Number(a) - Number(b)),
      );
      for (const note of all.data) expect(keysOf(note)).toEqual(CREDIT_NOTE_KEYS);
    });

    it('pages like every list', async () => {
      const page = await listed(`?invoice=${invoiceA}&page=2&per_page=1`);
      expect(page).toEqual({
        status: 'success',
        data: [notes[2]],
        meta: { page: 2, per_page: 1, total: 2 },
      });
      const after = await listed(`?invoice=${invoiceA}&after=${notes[0].id}&per_page=1`);
      expect(after.data).toEqual([notes[2]]);
      expectValidationError(await test.http.get('/v1/credit-note/all?invoice=abc'), ['invoice']);
      expectValidationError(await test.http.get('/v1/credit-note/all?from=2026-13-01'), ['from']);
    });

    it('answers 404 for an id naming no credit note', async () => {
      for (const id of ['999999', 'abc', '0']) {
        expectError(await test.http.get(`/v1/credit-note/${id}`), 404);
        expectError(await test.http.get(`/v1/credit-note/${id}/pdf`), 404);
      }
    });

    it('prints a PDF titled Credit note that names the invoice it corrects', async () => {
      const invoice = await invoiceOf('100.00', { invoice_no: 'INV-PRINTED-7' });
      const written = await addCreditNote(test.http, invoice.id, {
        credit_note_no: 'CN-PRINTED-7',
        items: [line('12.50')],
        reason: 'Late delivery discount',
      });
      const response = await test.http
        .get(`/v1/credit-note/${written.credit_note[0].id}/pdf`)
        .responseType('blob')
        .expect(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe('inline; filename="CN-PRINTED-7.pdf"');
      const text = flattened((await pdfText(response.body as Buffer)).text);
      expectInOrder(text, [
        'CREDIT NOTE',
        'Credit note number',
        'CN-PRINTED-7',
        'Corrects invoice',
        'INV-PRINTED-7',
        'Credited to',
        'Credit Co',
        'Reason',
        'Late delivery discount',
        '12.50',
        'Total',
        '12.50 USD',
      ]);
      expect(text).not.toContain('Due date');
      expect(text).not.toContain('Balance due');
    });

    it('sends through the outbox: a send-log entry, queued', async () => {
      const id = notes[1].id;
      const response = await test.http
        .post('/v1/credit-note/send')
        .send({ id, email: 'accounts@example.com' });
      expect(expectSuccess(response).message).toBe(
        `Credit note ${notes[1].credit_note_no} sent to accounts@example.com`,
      );
      const read = await readCreditNote(test.http, id);
      expect(read.send_log).toEqual([
        {
          email: 'accounts@example.com',
          date: expect.stringMatching(TIMESTAMP),
          delivery: 'queued',
          attempts: 0,
          kind: 'document',
        },
      ]);
      expectError(
        await test.http.post('/v1/credit-note/send').send({ id: '999999', email: 'a@example.com' }),
        404,
      );
      expectValidationError(
        await test.http.post('/v1/credit-note/send').send({ id, email: 'not-an-address' }),
        ['email'],
      );
      expect((await readCreditNote(test.http, id)).send_log).toHaveLength(1);
    });
  });

  describe('with an Idempotency-Key', () => {
    it('issues once, and replays the answer to a retry', async () => {
      const invoice = await invoiceOf('100.00');
      const body = creditNoteInput(invoice.id, { items: [line('25.00')] });
      const first = await add(body).set('Idempotency-Key', 'credit-once');
      const retry = await add(body).set('Idempotency-Key', 'credit-once');
      expectSuccess(first);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.text).toBe(first.text);
      expect((await creditNotesOf(invoice.id)).data).toHaveLength(1);
      expect((await state(invoice.id)).ledger).toEqual(['Credited 25']);
    });
  });
});
