import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { creditNoteInput } from './factories/credit-notes';
import { estimateInput } from './factories/estimates';
import { invoiceInput, InvoiceInput } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';
import { TestClock } from './setup/test-clock';

/*
 * docs/numbering.md: numbers from a series per kind of document, taken in the transaction that
 * writes the document, so they are unique and gapless under any concurrency; a caller's number
 * works as before.
 */

interface Series {
  kind: string;
  format: string;
  period: string;
  next: number;
  next_number: string;
  updated_at: string;
}

describe('Number series', () => {
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

  /** An invoice's add input with no number, so the series gives one. */
  function unnumbered(input: InvoiceInput = {}): InvoiceInput {
    const { invoice_no: _number, ...rest } = invoiceInput(client, input);
    return rest;
  }

  const addInvoice = (input: InvoiceInput = {}) =>
    test.http.post('/v1/invoice/add').send(unnumbered(input));

  function numberOf(response: Response): string {
    const body = expectSuccess(response) as { invoice: Array<{ invoice_no: string }> };
    return body.invoice[0].invoice_no;
  }

  async function series(kind: string): Promise<Series> {
    const body = expectSuccess(await test.http.get('/v1/number-series/all')) as { data: Series[] };
    const found = body.data.find((entry) => entry.kind === kind);
    if (!found) throw new Error(`no ${kind} series`);
    return found;
  }

  const change = (kind: string, body: object) =>
    test.http.put(`/v1/number-series/${kind}`).send(body);

  it('lists the three series with their default formats, each starting at 1', async () => {
    const body = expectSuccess(await test.http.get('/v1/number-series/all')) as { data: Series[] };
    expect(body.data.map(({ updated_at: _at, ...rest }) => rest)).toEqual([
      {
        kind: 'invoice',
        format: 'INV-{YYYY}-{SEQ:4}',
        period: '2026',
        next: 1,
        next_number: 'INV-2026-0001',
      },
      {
        kind: 'estimate',
        format: 'EST-{YYYY}-{SEQ:4}',
        period: '2026',
        next: 1,
        next_number: 'EST-2026-0001',
      },
      {
        kind: 'credit_note',
        format: 'CN-{YYYY}-{SEQ:4}',
        period: '2026',
        next: 1,
        next_number: 'CN-2026-0001',
      },
    ]);
  });

  it('numbers invoices, estimates, credit notes and conversions left without a number, in turn', async () => {
    const first = numberOf(await addInvoice());
    const second = numberOf(await addInvoice());
    expect([first, second]).toEqual(['INV-2026-0001', 'INV-2026-0002']);

    const { estimate_no: _estimateNo, ...estimate } = estimateInput(client);
    const added = expectSuccess(await test.http.post('/v1/estimate/add').send(estimate)) as {
      estimate: Array<{ id: string; estimate_no: string }>;
    };
    expect(added.estimate[0].estimate_no).toBe('EST-2026-0001');

    const converted = await test.http.post(`/v1/estimate/${added.estimate[0].id}/convert`).send({});
    expect(numberOf(converted)).toBe('INV-2026-0003');

    const invoiceId = (expectSuccess(converted) as { invoice: Array<{ id: string }> }).invoice[0]
      .id;
    const { credit_note_no: _cn, ...credit } = creditNoteInput(invoiceId);
    const note = expectSuccess(await test.http.post('/v1/credit-note/add').send(credit)) as {
      credit_note: Array<{ credit_note_no: string }>;
    };
    expect(note.credit_note[0].credit_note_no).toBe('CN-2026-0001');
    expect((await series('invoice')).next_number).toBe('INV-2026-0004');
  });

  it('takes a caller’s number as before without moving the series, and passes over one a caller took', async () => {
    const next = (await series('invoice')).next;
    const own = numberOf(await test.http.post('/v1/invoice/add').send(invoiceInput(client)));
    expect(own).not.toMatch(/^INV-2026-/);
    expect((await series('invoice')).next).toBe(next);

    const taken = `INV-2026-${String(next).padStart(4, '0')}`;
    numberOf(
      await test.http.post('/v1/invoice/add').send(invoiceInput(client, { invoice_no: taken })),
    );
    const after = `INV-2026-${String(next + 1).padStart(4, '0')}`;
    expect(numberOf(await addInvoice())).toBe(after);
  });

  it('takes no number for a refused add: a null or empty number, an unknown client, a due date before the issue date', async () => {
    const before = (await series('invoice')).next;
    expectValidationError(
      await test.http.post('/v1/invoice/add').send({ ...unnumbered(), invoice_no: null }),
      ['invoice_no'],
    );
    expectValidationError(
      await test.http.post('/v1/invoice/add').send({ ...unnumbered(), invoice_no: '' }),
      ['invoice_no'],
    );
    expectValidationError(await addInvoice({ client: '999999' }), ['client']);
    expectValidationError(await addInvoice({ issue_date: '2026-06-10', due_date: '2026-06-01' }), [
      'due_date',
    ]);
    expect((await series('invoice')).next).toBe(before);
    expect(numberOf(await addInvoice())).toBe(`INV-2026-${String(before).padStart(4, '0')}`);
  });

  it('restarts each year, and a document dated in an earlier year continues that year', async () => {
    clock.setToday('2026-12-31');
    const december = numberOf(await addInvoice());
    expect(december).toMatch(/^INV-2026-\d{4}$/);

    clock.setToday('2027-01-01');
    expect((await series('invoice')).next_number).toBe('INV-2027-0001');
    expect(numberOf(await addInvoice())).toBe('INV-2027-0001');
    const late = numberOf(await addInvoice({ issue_date: '2026-12-30', due_date: '2027-01-30' }));
    expect(late).toBe(`INV-2026-${String(Number(december.slice(-4)) + 1).padStart(4, '0')}`);
    expect(numberOf(await addInvoice())).toBe('INV-2027-0002');
    clock.setToday('2026-06-15');
  });

  it('changes the format and the next number; refuses next below a number taken, changing nothing', async () => {
    const current = await series('estimate');
    const refused = await change('estimate', { format: 'Q{YY}{MM}-{SEQ:3}', next: 0 });
    expectValidationError(refused, ['next']);
    expect(await series('estimate')).toEqual(current);

    const changed = expectSuccess(
      await change('estimate', { format: 'Q{YY}{MM}-{SEQ:3}', next: 41 }),
    ) as {
      number_series: Series[];
    };
    expect(changed.number_series).toEqual([
      expect.objectContaining({
        kind: 'estimate',
        format: 'Q{YY}{MM}-{SEQ:3}',
        period: '26-06',
        next: 41,
        next_number: 'Q2606-041',
      }),
    ]);
    const { estimate_no: _n, ...estimate } = estimateInput(client);
    const added = expectSuccess(await test.http.post('/v1/estimate/add').send(estimate)) as {
      estimate: Array<{ estimate_no: string }>;
    };
    expect(added.estimate[0].estimate_no).toBe('Q2606-041');

    const below = await change('estimate', { next: 41 });
    expectError(below, 409);
    expect((below.body as { errors: Record<string, string[]> }).errors).toEqual({
      next: ['next must be at least 42'],
    });
    expect(expectSuccess(await change('estimate', { next: 42 }))).toBeTruthy();
    expect((await series('estimate')).next).toBe(42);
  });

  it.each([
    [{ format: '' }, 'format'],
    [{ format: 'EST-{YYYY}' }, 'format'],
    [{ format: 'EST-{DD}-{SEQ}' }, 'format'],
    [{ format: `${'X'.repeat(60)}{SEQ}` }, 'format'],
    [{ format: 12 }, 'format'],
    [{ next: 1.5 }, 'next'],
    [{ next: 'ten' }, 'next'],
    [{ next: 1_000_000_001 }, 'next'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const before = await series('credit_note');
    expectValidationError(await change('credit_note', body), [field]);
    expect(await series('credit_note')).toEqual(before);
  });

  it('answers 404 for a kind it does not number', async () => {
    expectError(await change('credit-note', { next: 5 }), 404);
    expectError(await change('expense', { next: 5 }), 404);
  });

  it('keeps a series-numbered invoice: no delete, void or not, and no other number', async () => {
    const response = await addInvoice();
    const number = numberOf(response);
    const id = (expectSuccess(response) as { invoice: Array<{ id: string }> }).invoice[0].id;

    expectError(await test.http.delete(`/v1/invoice/${id}`), 409);
    expectError(
      await test.http.put(`/v1/invoice/${id}`).send({ ...unnumbered(), invoice_no: 'OTHER-1' }),
      409,
    );
    expectSuccess(
      await test.http.put(`/v1/invoice/${id}`).send(unnumbered({ description: 'Kept' })),
    );
    expectSuccess(
      await test.http.put(`/v1/invoice/${id}`).send({ ...unnumbered(), invoice_no: number }),
    );
    expectSuccess(
      await test.http.post(`/v1/invoice/${id}/void`).send({ reason: 'Issued in error' }),
    );
    expectError(await test.http.delete(`/v1/invoice/${id}`), 409);
    const read = expectSuccess(await test.http.get(`/v1/invoice/${id}`)) as {
      invoice: Array<{ invoice_no: string; status: string; description: string }>;
    };
    expect(read.invoice[0]).toMatchObject({
      invoice_no: number,
      status: 'void',
      description: 'Kept',
    });

    const own = expectSuccess(
      await test.http.post('/v1/invoice/add').send(invoiceInput(client)),
    ) as {
      invoice: Array<{ id: string }>;
    };
    expectSuccess(await test.http.delete(`/v1/invoice/${own.invoice[0].id}`));
  });

  it('gives 50 concurrent adds 50 consecutive numbers: none twice, none missing', async () => {
    expectSuccess(await change('invoice', { format: 'RACE-{SEQ:3}' }));
    const responses = await Promise.all(Array.from({ length: 50 }, () => addInvoice()));
    const numbers = responses.map(numberOf);
    const sequences = numbers
      .map((number) => Number(number.replace('RACE-', '')))
      .sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 50 }, (_, index) => sequences[0] + index));
    expect(sequences[0]).toBe(1);
    expect((await series('invoice')).next).toBe(51);
    expectSuccess(await change('invoice', { format: 'INV-{YYYY}-{SEQ:4}' }));
  });
});
