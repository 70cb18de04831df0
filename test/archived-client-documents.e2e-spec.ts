import { createConnection } from 'mysql2/promise';
import type { Response } from 'supertest';
import { addClient, ClientInput, ClientOutput, createClient } from './factories/clients';
import {
  createEstimate,
  EstimateInput,
  estimateInput,
  EstimateWriteResult,
  EstimateWritten,
  listEstimates,
  readEstimate,
} from './factories/estimates';
import {
  createInvoice,
  InvoiceInput,
  invoiceInput,
  InvoiceOutput,
  InvoiceWriteResult,
  listInvoices,
  plainReadLine,
  plainTaxBreakdown,
  readInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError, TIMESTAMP } from './setup/expectations';
import { lockWaits } from './setup/lock-waits';
import { testDialect } from './setup/test-database';

/*
 * docs/rules.md, Deleting, with the rule added alongside paging: an invoice or estimate whose
 * client was archived may still be updated as long as it keeps that client, and then takes the
 * customer fields from the archived client's row as it stands. Moving a document to an
 * archived or unknown client, creating one for it, or converting an estimate of it, answers
 * 422 naming `client`.
 */

const OLD_DETAILS: ClientInput = { names: 'Old Name Ltd', phone: '111', address: 'Old Street 1' };
const NEW_DETAILS: ClientInput = { names: 'New Name Ltd', phone: '222', address: 'New Street 2' };

describe('Invoices and estimates of an archived client', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const archiveClient = async (id: string) => {
    await test.http.delete(`/v1/client/${id}`).expect(200);
  };

  /**
   * A client with OLD_DETAILS; once `write` has made its document, the client's details change
   * to NEW_DETAILS and it is archived. The document still carries the old copy.
   */
  const archivedClientWith = async <T>(write: (client: string) => Promise<T>) => {
    const client = await addClient(test.http, OLD_DETAILS);
    const document = await write(client.id);
    await test.http
      .put(`/v1/client/${client.id}`)
      .send({ ...NEW_DETAILS, email: client.email })
      .expect(200);
    await archiveClient(client.id);
    return { client, document };
  };

  describe('invoices', () => {
    const update = (id: string, input: InvoiceInput) =>
      test.http.put(`/v1/invoice/${id}`).send(input);
    const listed = async (id: string) =>
      (await listInvoices(test.http)).find((invoice) => invoice.id === id);

    /** The PUT input that restates an invoice as it is, with changes. */
    const restated = (invoice: InvoiceOutput, changes: InvoiceInput = {}): InvoiceInput => ({
      client: invoice.customer_id,
      invoice_no: invoice.invoice_no,
      payment_status: invoice.payment_status,
      ...changes,
    });

    const withArchivedClient = () =>
      archivedClientWith((client) =>
        createInvoice(test.http, {
          client,
          items: [{ description: 'Work', quantity: 2, rate: '50.00' }],
        }),
      );

    /** `request` answers 422 naming client; the invoice reads and lists as before. */
    const expectRefusedAndUnchanged = async (
      invoice: InvoiceOutput,
      request: () => Promise<Response>,
    ) => {
      const before = await readInvoice(test.http, invoice.id);
      const { created_at: _createdAt, updated_at: _updatedAt, ...readFields } = invoice;
      expect(before.invoice[0]).toStrictEqual(readFields);
      expectValidationError(await request(), ['client']);
      expect(await readInvoice(test.http, invoice.id)).toStrictEqual(before);
      expect(await listed(invoice.id)).toStrictEqual(invoice);
    };

    it('still carries the customer fields copied before the client changed', async () => {
      const { client, document: invoice } = await withArchivedClient();
      expect(invoice).toMatchObject({
        customer_id: client.id,
        customer_name: 'Old Name Ltd',
        customer_phone: '111',
        customer_address: 'Old Street 1',
      });
      expect(await listed(invoice.id)).toStrictEqual(invoice);
    });

    it('an update keeping the archived client answers 200 with the fields re-copied from it', async () => {
      const { client, document: invoice } = await withArchivedClient();

      const response = await update(
        invoice.id,
        restated(invoice, {
          note: 'Updated after the archive',
          items: [{ description: 'Work', quantity: 3, rate: '50.00' }],
        }),
      );

      const body = expectSuccess(response) as unknown as InvoiceWriteResult & { status: string };
      const expected: InvoiceOutput = {
        ...invoice,
        customer_id: client.id,
        customer_name: 'New Name Ltd',
        customer_phone: '222',
        customer_address: 'New Street 2',
        note: 'Updated after the archive',
        sub_total: 150,
        total: 150,
        outstanding_balance: '150.00',
        updated_at: body.invoice[0].updated_at,
      };
      expect(body).toStrictEqual({
        status: 'success',
        invoice: [expected],
        items: [{ description: 'Work', quantity: 3, rate: '50.00' }],
        tax_breakdown: plainTaxBreakdown(0, '150.00', '0.00'),
      });
      expect(expected.updated_at).toMatch(TIMESTAMP);
      expect(expected.updated_at >= invoice.created_at).toBe(true);

      const { created_at: _createdAt, updated_at: _updatedAt, ...readFields } = expected;
      expect((await readInvoice(test.http, invoice.id)).invoice[0]).toStrictEqual(readFields);
      expect(await listed(invoice.id)).toStrictEqual(expected);
      // The update does not bring the client back.
      expectError(await test.http.get(`/v1/client/${client.id}`), 404);
      expectValidationError(await test.http.post('/v1/invoice/add').send(invoiceInput(client.id)), [
        'client',
      ]);
    });

    it('keeps the archived client given as a JSON number, with items left out', async () => {
      const { client, document: invoice } = await withArchivedClient();

      const response = await update(
        invoice.id,
        restated(invoice, { client: Number(client.id) as unknown as string, note: 'kept' }),
      );

      const body = expectSuccess(response) as unknown as InvoiceWriteResult;
      expect(body.invoice[0]).toStrictEqual({
        ...invoice,
        customer_name: 'New Name Ltd',
        customer_phone: '222',
        customer_address: 'New Street 2',
        note: 'kept',
        updated_at: body.invoice[0].updated_at,
      });
      expect(body.items).toStrictEqual([{ description: 'Work', quantity: 2, rate: '50.00' }]);
      expect((await readInvoice(test.http, invoice.id)).items).toStrictEqual([
        plainReadLine({ description: 'Work', quantity: 2, rate: '50.00', amount: '100.00' }),
      ]);
    });

    it('moving to another archived client answers 422 and changes nothing', async () => {
      const { document: invoice } = await withArchivedClient();
      const otherArchived = await createClient(test.http);
      await archiveClient(otherArchived);
      const liveInvoice = await createInvoice(test.http);

      await expectRefusedAndUnchanged(invoice, () =>
        update(invoice.id, restated(invoice, { client: otherArchived, note: 'moved' })),
      );
      await expectRefusedAndUnchanged(liveInvoice, () =>
        update(liveInvoice.id, restated(liveInvoice, { client: otherArchived })),
      );
    });

    it('moving to an unknown client answers 422 and changes nothing', async () => {
      const { document: invoice } = await withArchivedClient();
      const liveInvoice = await createInvoice(test.http);

      for (const unknown of ['999999', '4294967295']) {
        await expectRefusedAndUnchanged(invoice, () =>
          update(invoice.id, restated(invoice, { client: unknown, note: 'moved' })),
        );
        await expectRefusedAndUnchanged(liveInvoice, () =>
          update(liveInvoice.id, restated(liveInvoice, { client: unknown })),
        );
      }
    });

    it('may move to a live client; the archived client cannot then be taken back', async () => {
      const { client: archived, document: invoice } = await withArchivedClient();
      const live = await addClient(test.http, { names: 'Live Co', phone: '333', address: 'Here' });

      const moved = expectSuccess(
        await update(invoice.id, restated(invoice, { client: live.id })),
      ) as unknown as InvoiceWriteResult;
      expect(moved.invoice[0]).toMatchObject({
        customer_id: live.id,
        customer_name: 'Live Co',
        customer_phone: '333',
        customer_address: 'Here',
      });

      await expectRefusedAndUnchanged(moved.invoice[0], () =>
        update(invoice.id, restated(moved.invoice[0], { client: archived.id })),
      );
    });
  });

  describe('estimates', () => {
    const update = (id: string, input: EstimateInput) =>
      test.http.put(`/v1/estimate/${id}`).send(input);
    const convert = (id: string, invoiceNo: string) =>
      test.http.post(`/v1/estimate/${id}/convert`).send({ invoice_no: invoiceNo });
    const listed = async (id: string) =>
      (await listEstimates(test.http)).find((estimate) => estimate.id === id);
    const invoiceNumbers = async () =>
      (await listInvoices(test.http)).map((invoice) => invoice.invoice_no);

    /** The PUT input that restates an estimate as it is, with changes. */
    const restated = (estimate: EstimateWritten, changes: EstimateInput = {}): EstimateInput => ({
      client: estimate.customer_id,
      estimate_no: estimate.estimate_no,
      ...changes,
    });

    const withArchivedClient = () =>
      archivedClientWith((client) =>
        createEstimate(test.http, {
          client,
          items: [{ description: 'Design', quantity: 4, rate: '25.00' }],
        }),
      );

    /** `request` answers 422 naming client; the estimate reads and lists as before. */
    const expectRefusedAndUnchanged = async (
      estimate: EstimateWritten,
      request: () => Promise<Response>,
    ) => {
      const { estimate_no: referenceNo, ...rest } = estimate;
      const asListed = { ...rest, reference_no: referenceNo };
      const before = await readEstimate(test.http, estimate.id);
      expect(before.estimate[0]).toStrictEqual(asListed);
      expectValidationError(await request(), ['client']);
      expect(await readEstimate(test.http, estimate.id)).toStrictEqual(before);
      expect(await listed(estimate.id)).toStrictEqual(asListed);
    };

    it('an update keeping the archived client answers 200 with the fields re-copied from it', async () => {
      const { client, document: estimate } = await withArchivedClient();
      expect(estimate).toMatchObject({ customer_name: 'Old Name Ltd', customer_phone: '111' });

      const response = await update(
        estimate.id,
        restated(estimate, { accepted: 'true', note: 'Updated after the archive' }),
      );

      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      const expected: EstimateWritten = {
        ...estimate,
        customer_id: client.id,
        customer_name: 'New Name Ltd',
        customer_phone: '222',
        customer_address: 'New Street 2',
        accepted: 'True',
        note: 'Updated after the archive',
      };
      expect(body).toStrictEqual({
        status: 'success',
        estimate: [expected],
        items: [{ description: 'Design', quantity: 4, rate: '25.00' }],
        tax_breakdown: plainTaxBreakdown(0, '100.00', '0.00'),
      });

      const { estimate_no: referenceNo, ...rest } = expected;
      const asListed = { ...rest, reference_no: referenceNo };
      expect((await readEstimate(test.http, estimate.id)).estimate[0]).toStrictEqual(asListed);
      expect(await listed(estimate.id)).toStrictEqual(asListed);
      expectError(await test.http.get(`/v1/client/${client.id}`), 404);
      expectValidationError(
        await test.http.post('/v1/estimate/add').send(estimateInput(client.id)),
        ['client'],
      );
    });

    it('keeps the archived client given as a JSON number, with items left out', async () => {
      const { client, document: estimate } = await withArchivedClient();

      const response = await update(
        estimate.id,
        restated(estimate, { client: Number(client.id) as unknown as string }),
      );

      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toStrictEqual({
        ...estimate,
        customer_name: 'New Name Ltd',
        customer_phone: '222',
        customer_address: 'New Street 2',
      });
      expect(body.items).toStrictEqual([{ description: 'Design', quantity: 4, rate: '25.00' }]);
    });

    it('moving to another archived client answers 422 and changes nothing', async () => {
      const { document: estimate } = await withArchivedClient();
      const otherArchived = await createClient(test.http);
      await archiveClient(otherArchived);
      const liveEstimate = await createEstimate(test.http);

      await expectRefusedAndUnchanged(estimate, () =>
        update(estimate.id, restated(estimate, { client: otherArchived, note: 'moved' })),
      );
      await expectRefusedAndUnchanged(liveEstimate, () =>
        update(liveEstimate.id, restated(liveEstimate, { client: otherArchived })),
      );
    });

    it('moving to an unknown client answers 422 and changes nothing', async () => {
      const { document: estimate } = await withArchivedClient();
      const liveEstimate = await createEstimate(test.http);

      for (const unknown of ['999999', '4294967295']) {
        await expectRefusedAndUnchanged(estimate, () =>
          update(estimate.id, restated(estimate, { client: unknown, note: 'moved' })),
        );
        await expectRefusedAndUnchanged(liveEstimate, () =>
          update(liveEstimate.id, restated(liveEstimate, { client: unknown })),
        );
      }
    });

    it('may move to a live client; the archived client cannot then be taken back', async () => {
      const { client: archived, document: estimate } = await withArchivedClient();
      const live = await addClient(test.http, { names: 'Live Co', phone: '333', address: 'Here' });

      const moved = expectSuccess(
        await update(estimate.id, restated(estimate, { client: live.id })),
      ) as unknown as EstimateWriteResult;
      expect(moved.estimate[0]).toStrictEqual({
        ...estimate,
        customer_id: live.id,
        customer_name: 'Live Co',
        customer_phone: '333',
        customer_address: 'Here',
      });

      await expectRefusedAndUnchanged(moved.estimate[0], () =>
        update(estimate.id, restated(moved.estimate[0], { client: archived.id })),
      );
    });

    it('converting it answers 422 naming client; nothing is converted, and again the same', async () => {
      const { document: estimate } = await withArchivedClient();
      const numbersBefore = await invoiceNumbers();

      for (let attempt = 0; attempt < 2; attempt++) {
        await expectRefusedAndUnchanged(estimate, () => convert(estimate.id, 'INV-ARCH-CONV-1'));
        expect(await invoiceNumbers()).toStrictEqual(numbersBefore);
      }
      expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('False');
    });

    it('converts once moved to a live client, with that client’s fields', async () => {
      const { document: estimate } = await withArchivedClient();
      const live: ClientOutput = await addClient(test.http, {
        names: 'Buyer Co',
        phone: '444',
        address: 'Market 4',
      });
      expectValidationError(await convert(estimate.id, 'INV-ARCH-CONV-2'), ['client']);
      expectSuccess(await update(estimate.id, restated(estimate, { client: live.id })));

      const body = expectSuccess(
        await convert(estimate.id, 'INV-ARCH-CONV-2'),
      ) as unknown as InvoiceWriteResult;
      expect(body.invoice[0]).toMatchObject({
        invoice_no: 'INV-ARCH-CONV-2',
        customer_id: live.id,
        customer_name: 'Buyer Co',
        customer_phone: '444',
        customer_address: 'Market 4',
        payment_status: 'Not Paid',
        total: 100,
      });
      expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('True');
    });
  });
  /*
   * How the database keeps a client from being archived under a new document: the add reads the
   * client with a shared row lock (LOCK IN SHARE MODE), held until its transaction ends. A
   * locking read waits for a change in progress and sees it once committed; a plain read would
   * copy the row as it stood before. MariaDB only: SQLite's writes queue in the process.
   */
  if (testDialect() === 'mysql') {
    describe('a new document holds its client (MariaDB)', () => {
      it('waits for a change of the client in progress and copies the client as committed', async () => {
        const client = await addClient(test.http, OLD_DETAILS);
        const side = await createConnection(
          (process.env.DATABASE_URL ?? '').replace(/^mariadb:/, 'mysql:'),
        );
        try {
          await side.query('BEGIN');
          await side.query('UPDATE clients SET names = ? WHERE id = ?', [
            NEW_DETAILS.names,
            client.id,
          ]);
          const adding = test.http
            .post('/v1/invoice/add')
            .send(invoiceInput(client.id))
            .then((response) => response);
          expect(await lockWaits(side)).toBe(1);
          await side.query('COMMIT');

          const written = expectSuccess(await adding) as unknown as InvoiceWriteResult;
          expect(written.invoice[0].customer_name).toBe(NEW_DETAILS.names);
          const read = await readInvoice(test.http, written.invoice[0].id);
          expect(read.invoice[0].customer_name).toBe(NEW_DETAILS.names);
        } finally {
          await side.end();
        }
      });
    });
  }
});
