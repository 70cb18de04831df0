import { DataSource } from 'typeorm';
import { OutboxMessage } from '../src/delivery/entities/outbox-message.entity';
import * as renderer from '../src/documents/pdf/document-pdf.renderer';
import { DocumentView } from '../src/documents/document-view';
import { InvoiceRemindersService } from '../src/reminders/invoice-reminders.service';
import { addClient, ClientOutput, listClients } from './factories/clients';
import { addCreditNote, readCreditNote } from './factories/credit-notes';
import {
  addEstimate,
  clientEstimates,
  listEstimates,
  readEstimate,
  sendEstimate,
} from './factories/estimates';
import {
  createInvoice,
  InvoiceInput,
  InvoiceOutput,
  invoiceInput,
  listInvoices,
  payInvoice,
  readInvoice,
  refundInvoice,
  sendInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectSuccess, expectValidationError } from './setup/expectations';

/*
 * docs/documents.md: a client's tax id, country and language, answered wherever a client
 * is; the tax id and country copied onto invoices, estimates and credit notes like the other
 * customer fields; and what a document is printed from (its view: the PDF and the e-mail) in
 * its client's language, with its customer's tax id and country, a paid or void mark and the
 * invoice's ledger.
 */

const CUSTOMER = { tax_id: 'DE 123456789', country: 'de', language: 'de' };

describe('Document fields', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp({
      // No runner: every e-mail stays in the outbox with the view it was queued with.
      // DOCUMENT_LOCALE is what a client without a printable language gets; REMINDER_DAYS puts
      // every invoice due within a year at a reminder step (sent by hand below).
      env: { OUTBOX_POLL_MS: '0', DOCUMENT_LOCALE: 'fr', REMINDER_DAYS: '-365' },
    });
  });

  afterAll(async () => {
    await test.close();
  });

  const readClient = async (id: string): Promise<ClientOutput> =>
    ((await test.http.get(`/v1/client/${id}`).expect(200)).body as { data: ClientOutput[] })
      .data[0];

  const customerOf = (document: { customer_tax_id: string; customer_country: string }) => [
    document.customer_tax_id,
    document.customer_country,
  ];

  /** The views queued for a document, oldest first. */
  async function queuedViews(kind: string, documentId: string): Promise<DocumentView[]> {
    const rows = await test.app
      .get(DataSource)
      .getRepository(OutboxMessage)
      .find({ where: { kind: kind as OutboxMessage['kind'], documentId: Number(documentId) } });
    return rows
      .sort((a, b) => a.id - b.id)
      .map((row) => JSON.parse(row.documentView) as DocumentView);
  }

  /** The view a PDF was printed from (the renderer still runs: the PDF must come out). */
  async function printedView(path: string): Promise<DocumentView> {
    const spy = jest.spyOn(renderer, 'renderDocumentPdf');
    try {
      const response = await test.http.get(path).buffer(true);
      expect(response.status).toBe(200);
      expect(spy).toHaveBeenCalledTimes(1);
      return spy.mock.calls[0][0];
    } finally {
      spy.mockRestore();
    }
  }

  describe('clients', () => {
    it('answers the three fields in the add, read, list and update outputs', async () => {
      const added = await addClient(test.http, {
        names: 'Müller GmbH',
        tax_id: '  DE 123456789 ',
        country: 'de',
        language: 'DE',
      });
      const fields = { tax_id: 'DE 123456789', country: 'DE', language: 'de' };
      expect(added).toMatchObject(fields);
      expect(await readClient(added.id)).toEqual(added);
      const { updated_at: _, ...listed } = added;
      expect((await listClients(test.http)).find((item) => item.id === added.id)).toEqual(listed);

      const updated = await test.http
        .put(`/v1/client/${added.id}`)
        .send({ names: 'Müller AG', tax_id: 'CHE-123.456.789', country: 'CH', language: 'it' });
      const [client] = expectSuccess(updated).data as ClientOutput[];
      expect(client).toMatchObject({ tax_id: 'CHE-123.456.789', country: 'CH', language: 'it' });
      expect(await readClient(added.id)).toEqual(client);
    });

    it('refuses each invalid field with 422 naming it, and changes nothing', async () => {
      const client = await addClient(test.http, CUSTOMER);
      const before = await readClient(client.id);
      const clientsBefore = await listClients(test.http);

      const update = await test.http.put(`/v1/client/${client.id}`).send({
        names: 'Renamed',
        tax_id: 'x'.repeat(33),
        country: 'Deutschland',
        language: 'ger',
      });
      const add = await test.http
        .post('/v1/client/add')
        .send({ names: 'New', country: 'de', language: 'de-DE' });

      expectValidationError(update, ['tax_id', 'country', 'language']);
      expectValidationError(add, ['language']);
      expect(await readClient(client.id)).toEqual(before);
      expect(await listClients(test.http)).toEqual(clientsBefore);
    });
  });

  describe('copied onto documents', () => {
    it('copies tax id and country onto an invoice, answered in every output beside the others', async () => {
      const client = await addClient(test.http, CUSTOMER);

      const invoice = await createInvoice(test.http, { client: client.id });

      expect(customerOf(invoice)).toEqual(['DE 123456789', 'DE']);
      expect(customerOf((await readInvoice(test.http, invoice.id)).invoice[0])).toEqual([
        'DE 123456789',
        'DE',
      ]);
      const listed = (await listInvoices(test.http)).find((item) => item.id === invoice.id);
      expect(customerOf(listed!)).toEqual(['DE 123456789', 'DE']);
      const overview = (await test.http.get(`/v1/client/${client.id}`).expect(200)).body as {
        invoices: InvoiceOutput[];
      };
      expect(overview.invoices.map(customerOf)).toEqual([['DE 123456789', 'DE']]);
    });

    it('copies them again only when the document is written: on update and on a client change', async () => {
      const client = await addClient(test.http, CUSTOMER);
      const other = await addClient(test.http, { tax_id: 'FR40303265045', country: 'FR' });
      const invoice = await createInvoice(test.http, { client: client.id });
      await test.http
        .put(`/v1/client/${client.id}`)
        .send({ names: 'Renamed', tax_id: 'ATU12345678', country: 'AT' })
        .expect(200);

      expect(customerOf((await readInvoice(test.http, invoice.id)).invoice[0])).toEqual([
        'DE 123456789',
        'DE',
      ]);
      const restated = (input: InvoiceInput) => ({
        ...invoiceInput(input.client!, { invoice_no: invoice.invoice_no }),
        ...input,
      });
      const updated = await test.http
        .put(`/v1/invoice/${invoice.id}`)
        .send(restated({ client: client.id }))
        .expect(200);
      expect(customerOf((updated.body as { invoice: InvoiceOutput[] }).invoice[0])).toEqual([
        'ATU12345678',
        'AT',
      ]);
      const moved = await test.http
        .put(`/v1/invoice/${invoice.id}`)
        .send(restated({ client: other.id }))
        .expect(200);
      expect(customerOf((moved.body as { invoice: InvoiceOutput[] }).invoice[0])).toEqual([
        'FR40303265045',
        'FR',
      ]);
    });

    it("copies '' from a client without them", async () => {
      const invoice = await createInvoice(test.http);
      expect(customerOf(invoice)).toEqual(['', '']);
    });

    it('copies them onto an estimate, and onto the invoice it converts to as the client is then', async () => {
      const client = await addClient(test.http, CUSTOMER);
      const added = await addEstimate(test.http, { client: client.id });
      const [estimate] = added.estimate;

      expect(customerOf(estimate)).toEqual(['DE 123456789', 'DE']);
      expect(customerOf((await readEstimate(test.http, estimate.id)).estimate[0])).toEqual([
        'DE 123456789',
        'DE',
      ]);
      const listed = (await listEstimates(test.http)).find((item) => item.id === estimate.id);
      expect(customerOf(listed!)).toEqual(['DE 123456789', 'DE']);
      expect((await clientEstimates(test.http, client.id)).map(customerOf)).toEqual([
        ['DE 123456789', 'DE'],
      ]);

      await test.http
        .put(`/v1/client/${client.id}`)
        .send({ names: 'Moved', tax_id: 'NL123456789B01', country: 'nl' })
        .expect(200);
      const converted = await test.http
        .post(`/v1/estimate/${estimate.id}/convert`)
        .send({ invoice_no: 'CONV-FIELDS-1' })
        .expect(200);

      const [invoice] = (converted.body as { invoice: InvoiceOutput[] }).invoice;
      expect(customerOf(invoice)).toEqual(['NL123456789B01', 'NL']);
      expect(customerOf((await readEstimate(test.http, estimate.id)).estimate[0])).toEqual([
        'DE 123456789',
        'DE',
      ]);
    });

    it("copies them onto a credit note from the invoice's client as it is now", async () => {
      const client = await addClient(test.http, CUSTOMER);
      const invoice = await createInvoice(test.http, { client: client.id });
      await test.http
        .put(`/v1/client/${client.id}`)
        .send({ names: 'Now', tax_id: 'BE0123456789', country: 'BE' })
        .expect(200);

      const written = await addCreditNote(test.http, invoice.id);
      const [note] = written.credit_note;

      expect(customerOf(note)).toEqual(['BE0123456789', 'BE']);
      expect(customerOf((await readCreditNote(test.http, note.id)).credit_note[0])).toEqual([
        'BE0123456789',
        'BE',
      ]);
      const listed = (await test.http.get(`/v1/credit-note/all?invoice=${invoice.id}`)).body as {
        data: Array<{ customer_tax_id: string; customer_country: string }>;
      };
      expect(listed.data.map(customerOf)).toEqual([['BE0123456789', 'BE']]);
      // The invoice keeps what it copied when it was written.
      expect(customerOf(written.invoice[0])).toEqual(['DE 123456789', 'DE']);
    });
  });

  describe('printed views', () => {
    it("queues an invoice's e-mail in its client's language, with the ledger oldest first", async () => {
      const client = await addClient(test.http, { ...CUSTOMER, email: 'buyer@example.com' });
      const invoice = await createInvoice(test.http, {
        client: client.id,
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        items: [{ description: 'Work', quantity: 1, rate: '100.00' }],
      });
      await payInvoice(test.http, invoice.id, '50.00', { payment_date: '2026-03-10' });
      await payInvoice(test.http, invoice.id, '0.50', { payment_date: '2026-03-05' });
      await refundInvoice(test.http, invoice.id, '10.00', { refund_date: '2026-03-12' });
      const credit = await addCreditNote(test.http, invoice.id, {
        credit_note_no: 'CN-VIEW-1',
        issue_date: '2026-03-15',
        items: [{ description: 'Discount', quantity: 1, rate: '5.00' }],
      });
      const ledger = (await readInvoice(test.http, invoice.id)).payments;

      await sendInvoice(test.http, invoice.id, 'buyer@example.com');

      const [view] = await queuedViews('invoice', invoice.id);
      expect(view.locale).toBe('de');
      expect(view.customer).toMatchObject({ taxId: 'DE 123456789', country: 'DE' });
      expect(view).not.toHaveProperty('mark');
      expect(view).toMatchObject({ amountPaid: '45.50', balanceDue: '54.50' });
      const reference = (amount: number) =>
        ledger.find((entry) => entry.amount === amount)!.reference;
      expect(view.ledger).toEqual([
        { kind: 'payment', date: '2026-03-05', amount: '0.50', reference: reference(0.5) },
        { kind: 'payment', date: '2026-03-10', amount: '50.00', reference: reference(50) },
        { kind: 'refund', date: '2026-03-12', amount: '10.00', reference: reference(10) },
        { kind: 'credit', date: '2026-03-15', amount: '5.00', reference: 'CN-VIEW-1' },
      ]);
      expect(credit.credit_note[0].credit_note_no).toBe('CN-VIEW-1');
    });

    it('marks a paid invoice paid; a client without a printable language gets DOCUMENT_LOCALE', async () => {
      const japanese = await addClient(test.http, { language: 'ja', country: 'JP' });
      const none = await addClient(test.http);
      const paid = await createInvoice(test.http, { client: japanese.id });
      await payInvoice(test.http, paid.id, '100.00', { payment_date: '2026-03-02' });
      const flagged = await createInvoice(test.http, { client: none.id, payment_status: 'Paid' });

      await sendInvoice(test.http, paid.id, 'a@example.com');
      await sendInvoice(test.http, flagged.id, 'b@example.com');

      const [paidView] = await queuedViews('invoice', paid.id);
      const [flaggedView] = await queuedViews('invoice', flagged.id);
      expect(paidView).toMatchObject({ locale: 'fr', mark: 'paid', balanceDue: '0.00' });
      expect(paidView.customer).toMatchObject({ taxId: '', country: 'JP' });
      expect(paidView.ledger).toEqual([
        expect.objectContaining({ kind: 'payment', date: '2026-03-02', amount: '100.00' }),
      ]);
      expect(flaggedView).toMatchObject({ locale: 'fr', mark: 'paid', ledger: [] });
      expect(flaggedView.customer).toMatchObject({ taxId: '', country: '' });
    });

    it('prints a void invoice marked void, in the language of its client, archived or not', async () => {
      const client = await addClient(test.http, { ...CUSTOMER, language: 'es' });
      const invoice = await createInvoice(test.http, { client: client.id });
      await test.http.post(`/v1/invoice/${invoice.id}/void`).send({ reason: 'Twice' }).expect(200);
      await test.http.delete(`/v1/client/${client.id}`).expect(200);

      const view = await printedView(`/v1/invoice/${invoice.id}/pdf`);

      expect(view).toMatchObject({ kind: 'invoice', locale: 'es', mark: 'void', ledger: [] });
      expect(view.customer).toMatchObject({ taxId: 'DE 123456789', country: 'DE' });
    });

    it('prints an open invoice unmarked, with its payments', async () => {
      const client = await addClient(test.http, { language: 'en' });
      const invoice = await createInvoice(test.http, { client: client.id });
      await payInvoice(test.http, invoice.id, '25.00', { payment_date: '2026-03-03' });

      const view = await printedView(`/v1/invoice/${invoice.id}/pdf`);

      expect(view.locale).toBe('en');
      expect(view).not.toHaveProperty('mark');
      expect(view.ledger).toEqual([
        expect.objectContaining({ kind: 'payment', date: '2026-03-03', amount: '25.00' }),
      ]);
    });

    it('prints and queues estimates and credit notes in their client’s language', async () => {
      const client = await addClient(test.http, { ...CUSTOMER, language: 'fr', country: 'fr' });
      const [estimate] = (await addEstimate(test.http, { client: client.id })).estimate;
      const invoice = await createInvoice(test.http, { client: client.id });
      const [note] = (await addCreditNote(test.http, invoice.id)).credit_note;
      await test.http.put(`/v1/client/${client.id}`).send({ names: 'Now', language: 'de' });

      await sendEstimate(test.http, estimate.id, 'buyer@example.com');
      await test.http
        .post('/v1/credit-note/send')
        .send({ id: note.id, email: 'buyer@example.com' })
        .expect(200);

      const printedEstimate = await printedView(`/v1/estimate/${estimate.id}/pdf`);
      const printedNote = await printedView(`/v1/credit-note/${note.id}/pdf`);
      const [queuedEstimate] = await queuedViews('estimate', estimate.id);
      const [queuedNote] = await queuedViews('credit_note', note.id);
      for (const view of [printedEstimate, printedNote, queuedEstimate, queuedNote]) {
        // The client's language as it is now; the customer as the document copied it.
        expect(view.locale).toBe('de');
        expect(view.customer).toMatchObject({ taxId: 'DE 123456789', country: 'FR' });
        expect(view).not.toHaveProperty('mark');
        expect(view).not.toHaveProperty('ledger');
      }
      expect(queuedNote).toMatchObject({ kind: 'credit_note', corrects: invoice.invoice_no });
    });

    it("queues a reminder in its client's language, with the ledger", async () => {
      const client = await addClient(test.http, {
        ...CUSTOMER,
        language: 'es',
        email: 'late@example.com',
      });
      const invoice = await createInvoice(test.http, { client: client.id });
      await payInvoice(test.http, invoice.id, '10.00', { payment_date: '2026-03-04' });

      expect(await test.app.get(InvoiceRemindersService).remind(Number(invoice.id))).toBe(true);

      const [view] = await queuedViews('invoice', invoice.id);
      expect(view).toMatchObject({ locale: 'es', reminder: expect.any(Object) });
      expect(view.customer).toMatchObject({ taxId: 'DE 123456789', country: 'DE' });
      expect(view.ledger).toEqual([
        expect.objectContaining({ kind: 'payment', date: '2026-03-04', amount: '10.00' }),
      ]);
    });
  });
});
