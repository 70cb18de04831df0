import { addClient } from './factories/clients';
import { addEstimate } from './factories/estimates';
import { addInvoice, invoiceInput, InvoiceOutput, readInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectSuccess, expectValidationError } from './setup/expectations';
import { expectInOrder, pdfText } from './setup/pdf-text';

/*
 * The buyer's references an invoice carries for its e-invoice (docs/einvoices.md): BT-10, the
 * buyer reference (a Leitweg-ID), by default its client's, and BT-13, the purchase order.
 */
describe('Invoices: buyer_reference and order_reference', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const listed = async (id: string): Promise<InvoiceOutput | undefined> => {
    const response = await test.http.get('/v1/invoice/all').expect(200);
    return (response.body as { data: InvoiceOutput[] }).data.find((each) => each.id === id);
  };

  /** The invoice as added, read, listed and in its client's read: the same references. */
  const expectReferences = async (
    invoice: InvoiceOutput,
    references: { buyer_reference: string; order_reference: string },
  ) => {
    expect(invoice).toMatchObject(references);
    expect((await readInvoice(test.http, invoice.id)).invoice[0]).toMatchObject(references);
    expect(await listed(invoice.id)).toMatchObject(references);
  };

  it("takes the client's buyer reference and no order reference when given neither", async () => {
    const client = await addClient(test.http, { buyer_reference: '04011000-12345-34' });

    const { invoice } = await addInvoice(test.http, { client: client.id });

    await expectReferences(invoice[0], {
      buyer_reference: '04011000-12345-34',
      order_reference: '',
    });
  });

  it('answers both empty for a client without a buyer reference', async () => {
    const { invoice } = await addInvoice(test.http);

    await expectReferences(invoice[0], { buyer_reference: '', order_reference: '' });
  });

  it('takes its own references, trimmed, over the client\'s; "" is none', async () => {
    const client = await addClient(test.http, { buyer_reference: 'CLIENT-REF' });

    const own = await addInvoice(test.http, {
      client: client.id,
      buyer_reference: ' Own ref\t',
      order_reference: ' PO 4500012345 ',
    });
    const none = await addInvoice(test.http, { client: client.id, buyer_reference: '' });

    await expectReferences(own.invoice[0], {
      buyer_reference: 'Own ref',
      order_reference: 'PO 4500012345',
    });
    await expectReferences(none.invoice[0], { buyer_reference: '', order_reference: '' });
  });

  it('keeps its references on an update that leaves them out, changes and clears them when given', async () => {
    const client = await addClient(test.http, { buyer_reference: 'FIRST' });
    const { invoice } = await addInvoice(test.http, {
      client: client.id,
      order_reference: 'PO-1',
    });
    const { id, invoice_no } = invoice[0];
    const update = (input: object) =>
      test.http
        .put(`/v1/invoice/${id}`)
        .send({ ...invoiceInput(client.id, { invoice_no }), ...input });

    // The client's reference changing later changes no invoice already made.
    await test.http
      .put(`/v1/client/${client.id}`)
      .send({ names: 'Renamed', buyer_reference: 'SECOND' })
      .expect(200);
    const kept = expectSuccess(await update({})).invoice as InvoiceOutput[];
    await expectReferences(kept[0], { buyer_reference: 'FIRST', order_reference: 'PO-1' });

    const changed = expectSuccess(
      await update({ buyer_reference: 'THIRD', order_reference: 'PO-2' }),
    ).invoice as InvoiceOutput[];
    await expectReferences(changed[0], { buyer_reference: 'THIRD', order_reference: 'PO-2' });

    const cleared = expectSuccess(await update({ buyer_reference: '', order_reference: '' }))
      .invoice as InvoiceOutput[];
    await expectReferences(cleared[0], { buyer_reference: '', order_reference: '' });
  });

  it("gives an invoice converted from an estimate its client's buyer reference", async () => {
    const client = await addClient(test.http, { buyer_reference: 'LEITWEG-7' });
    const { estimate } = await addEstimate(test.http, { client: client.id });

    const response = await test.http.post(`/v1/estimate/${estimate[0].id}/convert`).send({});

    const [invoice] = expectSuccess(response).invoice as InvoiceOutput[];
    await expectReferences(invoice, { buyer_reference: 'LEITWEG-7', order_reference: '' });
  });

  it("prints both references on the invoice's PDF in the client's language", async () => {
    const client = await addClient(test.http, { language: 'fr', buyer_reference: 'REF-ACHAT-9' });
    const { invoice } = await addInvoice(test.http, {
      client: client.id,
      order_reference: 'BC 2026/114',
    });

    const response = await test.http.get(`/v1/invoice/${invoice[0].id}/pdf`).buffer(true);

    expect(response.status).toBe(200);
    const { text } = await pdfText(response.body as Buffer);
    expectInOrder(text, ['Référence acheteur REF-ACHAT-9', 'Bon de commande BC 2026/114']);
  });

  it.each([
    [
      'a buyer reference of 256 characters',
      { buyer_reference: 'B'.repeat(256) },
      'buyer_reference',
    ],
    ['a buyer reference that is not text', { buyer_reference: 42 }, 'buyer_reference'],
    [
      'an order reference of 256 characters',
      { order_reference: 'O'.repeat(256) },
      'order_reference',
    ],
    ['an order reference that is not text', { order_reference: ['PO'] }, 'order_reference'],
  ])('refuses %s with 422 and writes nothing', async (_, input, field) => {
    const client = await addClient(test.http);
    const before = await test.http.get('/v1/invoice/all').expect(200);

    const response = await test.http
      .post('/v1/invoice/add')
      .send({ ...invoiceInput(client.id), ...input });

    expectValidationError(response, [field]);
    const after = await test.http.get('/v1/invoice/all').expect(200);
    expect(after.body).toEqual(before.body);
  });

  it('takes references of 255 characters', async () => {
    const buyer_reference = 'B'.repeat(255);
    const order_reference = 'O'.repeat(255);

    const { invoice } = await addInvoice(test.http, { buyer_reference, order_reference });

    await expectReferences(invoice[0], { buyer_reference, order_reference });
  });
});
