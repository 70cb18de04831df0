import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { creditNoteInput } from './factories/credit-notes';
import { estimateInput } from './factories/estimates';
import { invoiceInput, InvoiceInput } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';
import { pdfText } from './setup/pdf-text';
import { TestClock } from './setup/test-clock';

/*
 * docs/numbering.md, drafts: an invoice or an estimate added with `draft: true` has no number,
 * changes and goes freely, takes part in nothing (payments, refunds, credit notes, void, sends,
 * conversion, reports) and prints DRAFT, until POST …/{id}/issue gives it its number.
 */

interface Invoice {
  id: string;
  invoice_no: string;
  status: string;
  issue_date: string;
  due_date: string;
}

describe('Drafts', () => {
  let test: TestApp;
  let client: string;
  const clock = new TestClock();

  beforeAll(async () => {
    clock.setToday('2026-06-15');
    test = await createTestApp({ clock });
    client = await createClient(test.http);
  });

  afterAll(async () => {
    await test.close();
  });

  /** A draft invoice's add input: no number, due a month after its issue date. */
  function draftInput(input: InvoiceInput = {}): Record<string, unknown> {
    const { invoice_no: _number, ...rest } = invoiceInput(client, {
      issue_date: '2026-05-01',
      due_date: '2026-05-31',
      ...input,
    });
    return { ...rest, draft: true };
  }

  const invoiceOf = (response: Response): Invoice =>
    (expectSuccess(response) as { invoice: Invoice[] }).invoice[0];

  async function addDraft(input: InvoiceInput = {}): Promise<Invoice> {
    return invoiceOf(await test.http.post('/v1/invoice/add').send(draftInput(input)));
  }

  async function nextInvoiceNumber(): Promise<string> {
    const body = expectSuccess(await test.http.get('/v1/number-series/all')) as {
      data: Array<{ kind: string; next_number: string }>;
    };
    return body.data.find((series) => series.kind === 'invoice')!.next_number;
  }

  /** Every report and the client's statement, as JSON: what a draft must not change. */
  async function reports(): Promise<unknown[]> {
    const paths = [
      '/v1/report/aging?as_of=2026-06-15',
      '/v1/report/profit-and-loss?from=2026-01-01&to=2026-12-31',
      '/v1/report/profit-and-loss?basis=cash&from=2026-01-01&to=2026-12-31',
      '/v1/report/tax-summary?from=2026-01-01&to=2026-12-31',
      `/v1/client/${client}/statement`,
    ];
    return Promise.all(paths.map(async (path) => expectSuccess(await test.http.get(path))));
  }

  it('adds an invoice without a number, status draft, listed as such, taking no number', async () => {
    const next = await nextInvoiceNumber();
    const first = await addDraft();
    const second = await addDraft();
    expect(first).toMatchObject({ invoice_no: '', status: 'draft' });
    expect(second).toMatchObject({ invoice_no: '', status: 'draft' });
    expect(await nextInvoiceNumber()).toBe(next);
    const listed = expectSuccess(await test.http.get('/v1/invoice/all?status=draft')) as {
      data: Array<{ id: string; status: string }>;
    };
    expect(listed.data.map(({ id }) => id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(listed.data.every(({ status }) => status === 'draft')).toBe(true);
    const open = expectSuccess(await test.http.get('/v1/invoice/all?status=overdue')) as {
      data: Array<{ id: string }>;
    };
    expect(open.data.map(({ id }) => id)).not.toContain(first.id);
  });

  it('refuses a number or Paid with draft: true (422), adding nothing', async () => {
    const before = expectSuccess(await test.http.get('/v1/invoice/all')) as { data: unknown[] };
    expectValidationError(
      await test.http.post('/v1/invoice/add').send({ ...draftInput(), invoice_no: 'D-1' }),
      ['invoice_no'],
    );
    expectValidationError(
      await test.http.post('/v1/invoice/add').send({ ...draftInput(), payment_status: 'Paid' }),
      ['payment_status'],
    );
    const after = expectSuccess(await test.http.get('/v1/invoice/all')) as { data: unknown[] };
    expect(after.data).toHaveLength(before.data.length);
  });

  it('changes and deletes a draft freely; a number given to it answers 422', async () => {
    const draft = await addDraft();
    const { draft: _flag, ...changes } = draftInput({
      items: [{ description: 'Changed', quantity: 2, rate: '30.00' }],
    });
    const updated = invoiceOf(await test.http.put(`/v1/invoice/${draft.id}`).send(changes));
    expect(updated).toMatchObject({ invoice_no: '', status: 'draft' });
    expectValidationError(
      await test.http.put(`/v1/invoice/${draft.id}`).send({ ...changes, invoice_no: 'D-2' }),
      ['invoice_no'],
    );
    expectSuccess(await test.http.delete(`/v1/invoice/${draft.id}`));
    expectError(await test.http.get(`/v1/invoice/${draft.id}`), 404);
  });

  it('refuses every move of money, a void, a credit note and a send with 409, changing nothing', async () => {
    const draft = await addDraft();
    const read = async () => expectSuccess(await test.http.get(`/v1/invoice/${draft.id}`));
    const before = await read();
    const refused: Array<[string, Promise<Response>]> = [
      [
        'payment',
        test.http
          .post('/v1/invoice/record-payment')
          .send({ id: draft.id, amount_paid: '1.00', payment_date: '2026-06-01' }),
      ],
      [
        'refund',
        test.http
          .post('/v1/invoice/refund')
          .send({ id: draft.id, amount: '1.00', refund_date: '2026-06-01' }),
      ],
      ['void', test.http.post(`/v1/invoice/${draft.id}/void`).send({})],
      ['paid', test.http.get(`/v1/invoice/paid/${draft.id}`)],
      ['not paid', test.http.get(`/v1/invoice/not-paid/${draft.id}`)],
      ['credit note', test.http.post('/v1/credit-note/add').send(creditNoteInput(draft.id))],
      ['send', test.http.post('/v1/invoice/send').send({ id: draft.id, email: 'ap@example.com' })],
    ];
    for (const [action, request] of refused) {
      const response = await request;
      expect({ action, status: response.status }).toEqual({ action, status: 409 });
      expectError(response, 409);
    }
    expect(await read()).toEqual(before);
  });

  it('leaves every report and the statement as they were', async () => {
    const before = await reports();
    await addDraft({ items: [{ description: 'Unseen', quantity: 1, rate: '500.00' }] });
    expect(await reports()).toEqual(before);
  });

  it('issues a draft: the series number of its issue date, the same term, an event; then it counts', async () => {
    const draft = await addDraft({
      items: [{ description: 'Issued', quantity: 1, rate: '250.00' }],
    });
    const reportsBefore = await reports();
    const number = await nextInvoiceNumber();

    const response = await test.http.post(`/v1/invoice/${draft.id}/issue`).send({});
    const issued = invoiceOf(response);
    expect(issued).toMatchObject({
      invoice_no: number,
      status: 'open',
      issue_date: '2026-06-15',
      due_date: '2026-07-15',
    });
    expect(await reports()).not.toEqual(reportsBefore);
    const events = expectSuccess(
      await test.http.get(`/v1/event/all?type=invoice.issued&object_id=${draft.id}`),
    ) as { data: Array<{ type: string; object_id: string }> };
    expect(events.data).toEqual([expect.objectContaining({ type: 'invoice.issued' })]);

    expectError(await test.http.post(`/v1/invoice/${draft.id}/issue`).send({}), 409);
    expectError(await test.http.delete(`/v1/invoice/${draft.id}`), 409);
    expectSuccess(
      await test.http
        .post('/v1/invoice/record-payment')
        .send({ id: draft.id, amount_paid: '1.00', payment_date: '2026-06-15' }),
    );
  });

  it('issues on a date given, numbering in that date’s period; a malformed date answers 422', async () => {
    const draft = await addDraft();
    expectValidationError(
      await test.http.post(`/v1/invoice/${draft.id}/issue`).send({ issue_date: '2026-02-30' }),
      ['issue_date'],
    );
    const issued = invoiceOf(
      await test.http.post(`/v1/invoice/${draft.id}/issue`).send({ issue_date: '2025-12-20' }),
    );
    expect(issued).toMatchObject({ issue_date: '2025-12-20', due_date: '2026-01-19' });
    expect(issued.invoice_no).toMatch(/^INV-2025-\d{4}$/);
  });

  it('prints DRAFT across the page and no number; the issued invoice prints its number', async () => {
    const draft = await addDraft();
    const pdf = async () =>
      pdfText(
        (await test.http.get(`/v1/invoice/${draft.id}/pdf`).buffer(true).expect(200))
          .body as Buffer,
      );
    const printed = await pdf();
    expect(printed.text).toContain('DRAFT');
    expect(printed.text).not.toMatch(/Invoice number/);
    const issued = invoiceOf(await test.http.post(`/v1/invoice/${draft.id}/issue`).send({}));
    const after = await pdf();
    expect(after.text).not.toContain('DRAFT');
    expect(after.text).toContain(issued.invoice_no);
  });

  it('answers 404 to issuing an invoice that does not exist, and 409 to one that has its number', async () => {
    expectError(await test.http.post('/v1/invoice/999999/issue').send({}), 404);
    const { invoice_no: _n, ...numbered } = invoiceInput(client);
    const invoice = invoiceOf(await test.http.post('/v1/invoice/add').send(numbered));
    expectError(await test.http.post(`/v1/invoice/${invoice.id}/issue`).send({}), 409);
  });

  describe('estimates', () => {
    interface Estimate {
      id: string;
      estimate_no: string;
      draft: boolean;
    }
    const estimateOf = (response: Response): Estimate =>
      (expectSuccess(response) as { estimate: Estimate[] }).estimate[0];

    it('adds a draft estimate without a number; it is not sent or converted until issued', async () => {
      const { estimate_no: _n, ...input } = estimateInput(client);
      const draft = estimateOf(
        await test.http.post('/v1/estimate/add').send({ ...input, draft: true }),
      );
      expect(draft).toMatchObject({ estimate_no: '', draft: true });
      expectValidationError(
        await test.http.post('/v1/estimate/add').send({ ...input, draft: true, estimate_no: 'E' }),
        ['estimate_no'],
      );
      expectError(
        await test.http.post('/v1/estimate/send').send({ id: draft.id, email: 'a@example.com' }),
        409,
      );
      expectError(await test.http.post(`/v1/estimate/${draft.id}/convert`).send({}), 409);

      const issued = estimateOf(await test.http.post(`/v1/estimate/${draft.id}/issue`).send({}));
      expect(issued.draft).toBe(false);
      const read = expectSuccess(await test.http.get(`/v1/estimate/${draft.id}`)) as {
        estimate: Array<{ reference_no: string; draft: boolean }>;
      };
      expect(read.estimate[0]).toMatchObject({ draft: false });
      expect(read.estimate[0].reference_no).toMatch(/^EST-2026-\d{4}$/);
      expectError(await test.http.post(`/v1/estimate/${draft.id}/issue`).send({}), 409);
      expectSuccess(await test.http.post(`/v1/estimate/${draft.id}/convert`).send({}));
    });
  });
});
