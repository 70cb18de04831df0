import { createConnection } from 'mysql2/promise';
import { DataSource, EntityManager } from 'typeorm';
import { Decimal } from '../src/common/money/decimal';
import { LIVE } from '../src/database/columns';
import {
  readCreditNoteDetail,
  readCreditNotePrint,
} from '../src/credit-notes/credit-note-detail.query';
import { recordRows } from '../src/database/record-rows';
import { EstimateLineItem } from '../src/estimates/entities/estimate-line-item.entity';
import { EstimateTaxGroup } from '../src/estimates/entities/estimate-tax-group.entity';
import { EstimateSendLogEntry } from '../src/estimates/entities/estimate-send-log-entry.entity';
import { Estimate } from '../src/estimates/entities/estimate.entity';
import {
  EstimateDetailRecord,
  readEstimateDetail,
  readEstimatePrint,
} from '../src/estimates/estimate-detail.query';
import { InvoiceLineItem } from '../src/invoices/entities/invoice-line-item.entity';
import { InvoiceTaxGroup } from '../src/invoices/entities/invoice-tax-group.entity';
import { InvoicePayment } from '../src/invoices/entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from '../src/invoices/entities/invoice-send-log-entry.entity';
import { Invoice } from '../src/invoices/entities/invoice.entity';
import {
  InvoiceDetailRecord,
  lockInvoiceDetail,
  readInvoiceDetail,
  readInvoicePrint,
} from '../src/invoices/invoice-detail.query';
import { createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import { createEstimate, estimateLines, sendEstimate } from './factories/estimates';
import {
  createInvoice,
  lineItems,
  payInvoice,
  refundInvoice,
  sendInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { QueryCounter } from './setup/query-counter';
import { testDialect } from './setup/test-database';

/*
 * readInvoiceDetail / readEstimateDetail read a document and its children in one statement:
 * on MySQL/MariaDB a UNION ALL of a part per table, on SQLite a row with a JSON column per
 * child table. They must answer exactly what TypeORM's own finds answer for the same rows:
 * same classes, exact decimals, same instants, children in order.
 */

/** Quotes, backslashes, JSON look-alikes and characters beyond the BMP. */
const AWKWARD_TEXT =
  'Ünïcødé — "quoted" \'single\' back\\slash \\" \\u0041 {"a":[1]} 😀 中文 עברית </script>';
/** Every C0 control character, NUL included: SQLite's JSON must escape each. */
const CONTROL_CHARACTERS = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join(
  '',
);
const MEGABYTE = 1024 * 1024;
const bytes = (values: string[]) => Buffer.byteLength(values.join(''));

describe('Detail reads: a document and its children in one statement', () => {
  let test: TestApp;
  let manager: EntityManager;
  let queries: QueryCounter;

  beforeAll(async () => {
    test = await createTestApp();
    manager = test.app.get(DataSource).manager;
    queries = new QueryCounter(test.app);
  });

  afterAll(async () => {
    queries.restore();
    await test.close();
  });

  it('sends the same statement texts for different ids: ids are bound, each shape prepared once', async () => {
    const client = await createClient(test.http);
    const ids = [(await createInvoice(test.http, { client })).id];
    ids.push((await createInvoice(test.http, { client })).id);
    const logger = test.app.get(DataSource).logger;
    const textsOf = async (id: string): Promise<string[]> => {
      const original = logger.logQuery;
      const seen: string[] = [];
      logger.logQuery = (sql, ...rest) => {
        seen.push(sql);
        original.call(logger, sql, ...rest);
      };
      try {
        await test.http.get(`/v1/invoice/${id}`).expect(200);
        await test.http.get(`/v1/invoice/paid/${id}`).expect(200);
        await test.http.delete(`/v1/invoice/${id}`).expect(200);
      } finally {
        logger.logQuery = original;
      }
      return seen;
    };
    const [first, second] = [await textsOf(ids[0]), await textsOf(ids[1])];
    expect(first.length).toBeGreaterThanOrEqual(4);
    expect(second).toEqual(first);
  });

  /** What the service read before: four finds. */
  async function invoiceAsFound(id: number): Promise<InvoiceDetailRecord | null> {
    const invoice = await manager.findOne(Invoice, { where: { id, ...LIVE } });
    if (!invoice) return null;
    const where = { invoiceId: id };
    return {
      document: invoice,
      lines: await manager.find(InvoiceLineItem, { where, order: { position: 'ASC' } }),
      breakdown: await manager.find(InvoiceTaxGroup, { where, order: { position: 'ASC' } }),
      payments: await manager.find(InvoicePayment, { where, order: { id: 'ASC' } }),
      sends: await manager.find(InvoiceSendLogEntry, { where, order: { id: 'ASC' } }),
    };
  }

  async function estimateAsFound(id: number): Promise<EstimateDetailRecord | null> {
    const estimate = await manager.findOne(Estimate, { where: { id, ...LIVE } });
    if (!estimate) return null;
    const where = { estimateId: id };
    return {
      document: estimate,
      lines: await manager.find(EstimateLineItem, { where, order: { position: 'ASC' } }),
      breakdown: await manager.find(EstimateTaxGroup, { where, order: { position: 'ASC' } }),
      sends: await manager.find(EstimateSendLogEntry, { where, order: { id: 'ASC' } }),
    };
  }

  /** The one-statement read, which must equal the finds' answer; answers it. */
  async function expectInvoiceAsFound(id: number): Promise<InvoiceDetailRecord | null> {
    const expected = await invoiceAsFound(id);
    let actual: InvoiceDetailRecord | null = null;
    const count = await queries.measure(async () => {
      actual = await readInvoiceDetail(manager, id);
    });
    expect(count).toBe(1);
    // Strict: the same classes (Invoice, Decimal, Date), no property more or less.
    expect(actual).toStrictEqual(expected);
    return actual;
  }

  async function expectEstimateAsFound(id: number): Promise<EstimateDetailRecord | null> {
    const expected = await estimateAsFound(id);
    let actual: EstimateDetailRecord | null = null;
    const count = await queries.measure(async () => {
      actual = await readEstimateDetail(manager, id);
    });
    expect(count).toBe(1);
    expect(actual).toStrictEqual(expected);
    return actual;
  }

  const fixed = (value: Decimal) => value.toFixed(4);

  /** Inserts rows in chunks: SQLite takes at most 32766 parameters a statement. */
  async function insertMany<T>(target: new () => T, rows: Array<Partial<T>>): Promise<void> {
    for (let start = 0; start < rows.length; start += 1000) {
      await manager.insert(target, rows.slice(start, start + 1000));
    }
  }

  describe('invoices', () => {
    it('reads 3 lines, 2 payments and 2 sends as the finds do, each in order', async () => {
      const invoice = await createInvoice(test.http, {
        items: lineItems(3, { rate: '10.00' }),
        note: 'Three lines',
      });
      await payInvoice(test.http, invoice.id, '5.50');
      await payInvoice(test.http, invoice.id, '1.25', { payment_method: 'Cash' });
      await sendInvoice(test.http, invoice.id, 'first@example.com');
      await sendInvoice(test.http, invoice.id, 'second@example.com');

      const detail = await expectInvoiceAsFound(Number(invoice.id));

      expect(detail?.document).toBeInstanceOf(Invoice);
      expect(detail?.document.createdAt).toBeInstanceOf(Date);
      expect(detail?.document.deletedAt).toBeNull();
      expect(detail?.lines.map((line) => line.position)).toEqual([0, 1, 2]);
      expect(detail?.lines.map((line) => line.description)).toEqual(['Line 1', 'Line 2', 'Line 3']);
      expect(detail?.payments.map((payment) => fixed(payment.amount))).toEqual([
        '5.5000',
        '1.2500',
      ]);
      expect(detail?.payments[1].method).toBe('Cash');
      expect(detail?.payments[0].createdAt).toBeInstanceOf(Date);
      expect(detail?.sends.map((send) => send.email)).toEqual([
        'first@example.com',
        'second@example.com',
      ]);
      expect(detail?.sends[0].sentAt).toBeInstanceOf(Date);
      expect(detail?.sends[0]).not.toHaveProperty('delivery');
      expect(fixed(detail!.document.amountPaid)).toBe('6.7500');
    });

    it('reads lines in position order whatever order their ids are in', async () => {
      const invoice = await createInvoice(test.http, { items: lineItems(4) });
      const id = Number(invoice.id);
      // Reverse the positions, so id order and position order disagree.
      const lines = await manager.find(InvoiceLineItem, { where: { invoiceId: id } });
      for (const line of lines) {
        await manager.update(InvoiceLineItem, line.id, { position: 3 - line.position });
      }

      const detail = await expectInvoiceAsFound(id);

      expect(detail?.lines.map((line) => line.description)).toEqual([
        'Line 4',
        'Line 3',
        'Line 2',
        'Line 1',
      ]);
    });

    it('reads an invoice without lines, payments or sends as empty lists', async () => {
      const invoice = await createInvoice(test.http);
      const id = Number(invoice.id);
      // The API needs a line; a row without any is still read right.
      await manager.delete(InvoiceLineItem, { invoiceId: id });

      const detail = await expectInvoiceAsFound(id);

      expect([detail?.lines, detail?.payments, detail?.sends]).toEqual([[], [], []]);
    });

    it('keeps awkward text exact: quotes, backslashes, emoji, control characters', async () => {
      const client = await createClient(test.http, { names: AWKWARD_TEXT });
      const invoice = await createInvoice(test.http, {
        client,
        description: AWKWARD_TEXT,
        note: `${AWKWARD_TEXT}\nsecond line\ttabbed`,
        items: [{ description: AWKWARD_TEXT, quantity: 1, rate: '1.00' }],
      });
      const id = Number(invoice.id);
      await payInvoice(test.http, invoice.id, '0.50');
      await sendInvoice(test.http, invoice.id, 'awkward@example.com');
      // Beyond what the API takes: every control character, in each JSON-aggregated table.
      await manager.update(InvoiceLineItem, { invoiceId: id }, { description: CONTROL_CHARACTERS });
      await manager.update(InvoicePayment, { invoiceId: id }, { reference: CONTROL_CHARACTERS });
      await manager.update(InvoiceSendLogEntry, { invoiceId: id }, { phone: CONTROL_CHARACTERS });
      await manager.update(Invoice, id, { customerAddress: CONTROL_CHARACTERS });

      const detail = await expectInvoiceAsFound(id);

      expect(detail?.document.description).toBe(AWKWARD_TEXT);
      expect(detail?.document.customerName).toBe(AWKWARD_TEXT);
      expect(detail?.document.customerAddress).toBe(CONTROL_CHARACTERS);
      expect(detail?.lines[0].description).toBe(CONTROL_CHARACTERS);
      expect(detail?.payments[0].reference).toBe(CONTROL_CHARACTERS);
      expect(detail?.sends[0].phone).toBe(CONTROL_CHARACTERS);
    });

    it('keeps decimals exact at both ends of their range', async () => {
      const invoice = await createInvoice(test.http, { items: lineItems(3) });
      const id = Number(invoice.id);
      await payInvoice(test.http, invoice.id, '1.00');
      // Past what a currency's rounding lets through the API: the stored extremes.
      const [first, second, third] = await manager.find(InvoiceLineItem, {
        where: { invoiceId: id },
        order: { position: 'ASC' },
      });
      const large = new Decimal('1234567890123.4567');
      const small = new Decimal('0.0001');
      // MySQL holds amount + discount_amount within 0.5 of quantity × rate
      // (chk_invoice_line_items_discount): small × large = 123456789.01234567, so a small
      // amount takes the rest as its discount, and a large amount comes with a rate of 1.
      const rest = new Decimal('123456789.0123');
      await manager.update(InvoiceLineItem, first.id, {
        quantity: small,
        rate: large,
        amount: small,
        discountAmount: rest,
      });
      await manager.update(InvoiceLineItem, second.id, {
        quantity: large,
        rate: small,
        amount: small,
        discountAmount: rest,
      });
      await manager.update(InvoiceLineItem, third.id, {
        quantity: large,
        rate: new Decimal('1'),
        amount: large,
      });
      await manager.update(InvoicePayment, { invoiceId: id }, { amount: small });
      // The database holds total = sub_total − discount + tax (chk_invoices_sums).
      await manager.update(Invoice, id, {
        subTotal: large,
        taxAmount: new Decimal('8765432109876.5432'),
        total: new Decimal('9999999999999.9999'),
        amountPaid: small,
        taxRate: new Decimal('100.0000'),
      });

      const detail = await expectInvoiceAsFound(id);

      expect(
        detail?.lines.map((line) =>
          [line.quantity, line.rate, line.amount, line.discountAmount].map(fixed),
        ),
      ).toEqual([
        ['0.0001', '1234567890123.4567', '0.0001', '123456789.0123'],
        ['1234567890123.4567', '0.0001', '0.0001', '123456789.0123'],
        ['1234567890123.4567', '1.0000', '1234567890123.4567', '0.0000'],
      ]);
      expect(fixed(detail!.payments[0].amount)).toBe('0.0001');
      expect(detail?.payments[0].amount).toBeInstanceOf(Decimal);
      expect(fixed(detail!.document.total)).toBe('9999999999999.9999');
      expect(fixed(detail!.document.amountPaid)).toBe('0.0001');
    });

    it('answers null for an archived invoice and for an unknown id', async () => {
      const invoice = await createInvoice(test.http);
      await sendInvoice(test.http, invoice.id, 'gone@example.com');
      await test.http.delete(`/v1/invoice/${invoice.id}`).expect(200);

      expect(await expectInvoiceAsFound(Number(invoice.id))).toBeNull();
      expect(await expectInvoiceAsFound(999999999)).toBeNull();
    });

    it('reads children of more than 1 MB a column whole', async () => {
      const invoice = await createInvoice(test.http);
      const id = Number(invoice.id);
      const createdAt = new Date('2026-03-10T12:34:56.000Z');
      // Each child table with a column whose values pass 1 MB together; 'é' is two bytes.
      await insertMany(
        InvoiceLineItem,
        Array.from({ length: 1200 }, (_, index) => ({
          invoiceId: id,
          position: index + 1,
          description: `${index} ${'é'.repeat(500)}`,
          quantity: new Decimal('1.0000'),
          rate: new Decimal('0.0001'),
          amount: new Decimal('0.0001'),
          unit: 'C62',
          discountAmount: new Decimal('0'),
        })),
      );
      await insertMany(
        InvoicePayment,
        Array.from({ length: 1200 }, (_, index) => ({
          invoiceId: id,
          reference: `${id}-${index}-`.padEnd(32, 'R'),
          status: 'Refunded',
          amount: new Decimal(`${index}.0001`),
          method: 'Bank Transfer' as const,
          paymentDate: '2026-03-10',
          reason: `${index} ${'é'.repeat(500)}`,
          creditNoteId: null,
          createdAt,
        })),
      );
      await insertMany(
        InvoiceSendLogEntry,
        Array.from({ length: 4500 }, (_, index) => ({
          invoiceId: id,
          email: `${'a'.repeat(230)}${index}@example.com`,
          phone: '+1 555 0100',
          sentAt: createdAt,
          kind: 'document' as const,
        })),
      );

      const detail = await expectInvoiceAsFound(id);

      expect([detail?.lines.length, detail?.payments.length, detail?.sends.length]).toEqual([
        1201, 1200, 4500,
      ]);
      expect(bytes(detail!.lines.map((line) => line.description))).toBeGreaterThan(MEGABYTE);
      expect(bytes(detail!.payments.map((payment) => payment.reason))).toBeGreaterThan(MEGABYTE);
      expect(bytes(detail!.sends.map((send) => send.email))).toBeGreaterThan(MEGABYTE);
      expect(fixed(detail!.payments[1199].amount)).toBe('1199.0001');
      expect(detail?.sends[4499].sentAt).toEqual(createdAt);
    });
  });

  describe('estimates', () => {
    it('reads 3 lines and 2 sends as the finds do, each in order', async () => {
      const estimate = await createEstimate(test.http, {
        items: estimateLines(3, { rate: '10.00' }),
        accepted: true,
      });
      await sendEstimate(test.http, estimate.id, 'first@example.com');
      await sendEstimate(test.http, estimate.id, 'second@example.com');

      const detail = await expectEstimateAsFound(Number(estimate.id));

      expect(detail?.document).toBeInstanceOf(Estimate);
      expect(detail?.document.accepted).toBe(true);
      expect(detail?.document.convertedInvoiceId).toBeNull();
      expect(detail?.lines.map((line) => line.position)).toEqual([0, 1, 2]);
      expect(detail?.sends.map((send) => send.email)).toEqual([
        'first@example.com',
        'second@example.com',
      ]);
      expect(detail?.sends[1].sentAt).toBeInstanceOf(Date);
    });

    it('reads a converted estimate with its invoice id', async () => {
      const estimate = await createEstimate(test.http);
      await test.http
        .post(`/v1/estimate/${estimate.id}/convert`)
        .send({ invoice_no: `CONV-${estimate.id}` })
        .expect(200);

      const detail = await expectEstimateAsFound(Number(estimate.id));

      expect(detail?.document.convertedInvoiceId).toEqual(expect.any(Number));
    });

    it('reads an estimate without lines or sends as empty lists', async () => {
      const estimate = await createEstimate(test.http, { accepted: false });
      const id = Number(estimate.id);
      await manager.delete(EstimateLineItem, { estimateId: id });

      const detail = await expectEstimateAsFound(id);

      expect([detail?.lines, detail?.sends]).toEqual([[], []]);
      expect(detail?.document.accepted).toBe(false);
    });

    it('keeps awkward text and extreme decimals exact', async () => {
      const estimate = await createEstimate(test.http, {
        description: AWKWARD_TEXT,
        note: `${AWKWARD_TEXT}\nsecond line`,
        items: [{ description: AWKWARD_TEXT, quantity: 1, rate: '1.00' }, ...estimateLines(1)],
      });
      const id = Number(estimate.id);
      await sendEstimate(test.http, estimate.id, 'awkward@example.com');
      const [first, second] = await manager.find(EstimateLineItem, {
        where: { estimateId: id },
        order: { position: 'ASC' },
      });
      const large = new Decimal('1234567890123.4567');
      const small = new Decimal('0.0001');
      // MySQL holds the amount within 0.5 of quantity × rate (chk_estimate_line_items_discount).
      await manager.update(EstimateLineItem, first.id, {
        quantity: small,
        rate: large,
        amount: new Decimal('123456789.0123'),
      });
      await manager.update(EstimateLineItem, second.id, { description: CONTROL_CHARACTERS });
      await manager.update(EstimateSendLogEntry, { estimateId: id }, { phone: CONTROL_CHARACTERS });

      const detail = await expectEstimateAsFound(id);

      expect(detail?.lines[0].description).toBe(AWKWARD_TEXT);
      expect([detail!.lines[0].quantity, detail!.lines[0].rate].map(fixed)).toEqual([
        '0.0001',
        '1234567890123.4567',
      ]);
      expect(detail?.lines[1].description).toBe(CONTROL_CHARACTERS);
      expect(detail?.sends[0].phone).toBe(CONTROL_CHARACTERS);
    });

    it('answers null for an archived estimate and for an unknown id', async () => {
      const estimate = await createEstimate(test.http);
      await test.http.delete(`/v1/estimate/${estimate.id}`).expect(200);

      expect(await expectEstimateAsFound(Number(estimate.id))).toBeNull();
      expect(await expectEstimateAsFound(999999999)).toBeNull();
    });

    it('reads children of more than 1 MB a column whole', async () => {
      const estimate = await createEstimate(test.http);
      const id = Number(estimate.id);
      await insertMany(
        EstimateLineItem,
        Array.from({ length: 1200 }, (_, index) => ({
          estimateId: id,
          position: index + 1,
          description: `${index} ${'é'.repeat(500)}`,
          quantity: new Decimal('1.0000'),
          rate: new Decimal('0.0001'),
          amount: new Decimal('0.0001'),
          unit: 'C62',
          discountAmount: new Decimal('0'),
        })),
      );
      await insertMany(
        EstimateSendLogEntry,
        Array.from({ length: 4500 }, (_, index) => ({
          estimateId: id,
          email: `${'a'.repeat(230)}${index}@example.com`,
          phone: '',
          sentAt: new Date('2026-03-10T12:34:56.000Z'),
          kind: 'document' as const,
        })),
      );

      const detail = await expectEstimateAsFound(id);

      expect([detail?.lines.length, detail?.sends.length]).toEqual([1201, 4500]);
      expect(bytes(detail!.lines.map((line) => line.description))).toBeGreaterThan(MEGABYTE);
      expect(bytes(detail!.sends.map((send) => send.email))).toBeGreaterThan(MEGABYTE);
    });
  });

  /*
   * MySQL/MariaDB run the statement prepared (binary protocol), SQLite as a text query. What the
   * text protocol gave before is the reference: the same statement through `manager.query`,
   * hydrated by the same code, must read the same detail, class for class and value for value.
   */
  describe('prepared on MySQL/MariaDB, as text on SQLite', () => {
    const mysql = testDialect() === 'mysql';
    let dataSource: DataSource;

    beforeAll(() => {
      dataSource = test.app.get(DataSource);
    });

    /**
     * `read` on `on` as the service runs it (counted: one statement), then as the text query
     * it was: MySQL/MariaDB must not have gone through `manager.query` the first time, SQLite
     * must have. Answers both reads.
     */
    async function bothWays<T>(
      on: EntityManager,
      read: (manager: EntityManager) => Promise<T>,
    ): Promise<{ read: T; asText: T }> {
      const rows = recordRows(on);
      const textQuery = jest.spyOn(on, 'query');
      try {
        let served: T | undefined;
        expect(await queries.measure(async () => (served = await read(on)))).toBe(1);
        expect(textQuery).toHaveBeenCalledTimes(mysql ? 0 : 1);
        const asTextRead = jest
          .spyOn(rows, 'read')
          .mockImplementation((manager, build, parameters) =>
            manager.query(rows.statement(build), parameters),
          );
        try {
          const asText = await read(on);
          expect(textQuery).toHaveBeenCalledTimes(mysql ? 1 : 2);
          return { read: served as T, asText };
        } finally {
          asTextRead.mockRestore();
        }
      } finally {
        textQuery.mockRestore();
      }
    }

    async function expectSameBothWays<T>(
      read: (manager: EntityManager) => Promise<T>,
      on: EntityManager = manager,
    ): Promise<T> {
      const both = await bothWays(on, read);
      expect(both.read).toStrictEqual(both.asText);
      return both.read;
    }

    it('invoices, their print reads and credit notes: ledgers, sends, a client language, awkward text, extreme decimals', async () => {
      const client = await createClient(test.http, { names: AWKWARD_TEXT, language: 'de' });
      // Near the 1,000 characters a description may hold, bytes of two, three and four.
      const long = `${AWKWARD_TEXT} ${'ß€😀'.repeat(220)}`;
      const invoice = await createInvoice(test.http, {
        client,
        description: AWKWARD_TEXT,
        note: `${AWKWARD_TEXT}\nsecond line`,
        items: [
          { description: long, quantity: 1, rate: '10.00' },
          ...lineItems(2, { rate: '10.00' }),
        ],
      });
      const id = Number(invoice.id);
      await payInvoice(test.http, invoice.id, '5.50');
      await payInvoice(test.http, invoice.id, '1.25', { payment_method: 'Cash' });
      await refundInvoice(test.http, invoice.id, '1.00', { reason: AWKWARD_TEXT });
      const { credit_note } = await addCreditNote(test.http, invoice.id, {
        items: [{ description: long, quantity: 1, rate: '3.33' }, ...lineItems(1)],
      });
      const creditNoteId = Number(credit_note[0].id);
      await sendInvoice(test.http, invoice.id, 'first@example.com');
      await sendInvoice(test.http, invoice.id, 'second@example.com');
      await test.http
        .post('/v1/credit-note/send')
        .send({ id: credit_note[0].id, email: 'credit@example.com' })
        .expect(200);
      // Every digit a DECIMAL(17,4) holds, beyond what a currency's rounding lets through. MySQL
      // holds a line's amount and discount not negative, and amount + discount within 0.5 of
      // quantity × rate (chk_invoice_line_items_discount): the negative extreme is a quantity
      // at a rate of 0, and 0.0001 × 1234567890123.4567 is the amount and its discount.
      const [line, other] = await manager.find(InvoiceLineItem, {
        where: { invoiceId: id },
        order: { position: 'ASC' },
      });
      await manager.update(InvoiceLineItem, line.id, {
        quantity: new Decimal('0.0001'),
        rate: new Decimal('1234567890123.4567'),
        amount: new Decimal('0.0001'),
        discountAmount: new Decimal('123456789.0123'),
      });
      await manager.update(InvoiceLineItem, other.id, {
        quantity: new Decimal('-9999999999999.9999'),
        rate: new Decimal('0'),
        amount: new Decimal('0'),
      });
      await manager.update(Invoice, id, { taxRate: new Decimal('12.3456') });

      const detail = await expectSameBothWays((on) => readInvoiceDetail(on, id));
      const print = await expectSameBothWays((on) => readInvoicePrint(on, id));
      await dataSource.transaction((tx) =>
        expectSameBothWays((on) => lockInvoiceDetail(on, id), tx),
      );
      const credited = await expectSameBothWays((on) => readCreditNoteDetail(on, creditNoteId));
      await expectSameBothWays((on) => readCreditNotePrint(on, creditNoteId));

      expect(detail?.payments.map((entry) => entry.status)).toEqual([
        'Completed',
        'Completed',
        'Refunded',
        'Credited',
      ]);
      expect(detail?.sends).toHaveLength(2);
      expect(detail?.lines.map((entry) => entry.description)).toContain(long);
      expect(fixed(detail!.lines.find((entry) => entry.id === other.id)!.quantity)).toBe(
        '-9999999999999.9999',
      );
      expect(
        [line.id, other.id].map((lineId) => {
          const found = detail!.lines.find((entry) => entry.id === lineId)!;
          return [found.quantity, found.rate, found.amount, found.discountAmount].map(fixed);
        }),
      ).toEqual([
        ['0.0001', '1234567890123.4567', '0.0001', '123456789.0123'],
        ['-9999999999999.9999', '0.0000', '0.0000', '0.0000'],
      ]);
      expect(print?.clientLanguage).toBe('de');
      expect(credited?.lines[0].description).toBe(long);
      expect(credited?.sends.map((entry) => entry.email)).toEqual(['credit@example.com']);
    });

    it('a voided invoice, documents without children, estimates, archived and unknown ids', async () => {
      const voided = await createInvoice(test.http);
      await sendInvoice(test.http, voided.id, 'void@example.com');
      await test.http.post(`/v1/invoice/${voided.id}/void`).send({ reason: 'Wrong' }).expect(200);
      const bare = await createInvoice(test.http);
      await manager.delete(InvoiceLineItem, { invoiceId: Number(bare.id) });
      const estimate = await createEstimate(test.http, {
        description: AWKWARD_TEXT,
        items: estimateLines(3),
        accepted: true,
      });
      await sendEstimate(test.http, estimate.id, 'estimate@example.com');
      const bareEstimate = await createEstimate(test.http, { accepted: false });
      await manager.delete(EstimateLineItem, { estimateId: Number(bareEstimate.id) });
      const archived = await createInvoice(test.http);
      await test.http.delete(`/v1/invoice/${archived.id}`).expect(200);

      const read = await expectSameBothWays((on) => readInvoiceDetail(on, Number(voided.id)));
      const empty = await expectSameBothWays((on) => readInvoicePrint(on, Number(bare.id)));
      await expectSameBothWays((on) => readEstimateDetail(on, Number(estimate.id)));
      await expectSameBothWays((on) => readEstimatePrint(on, Number(estimate.id)));
      const emptyEstimate = await expectSameBothWays((on) =>
        readEstimateDetail(on, Number(bareEstimate.id)),
      );

      expect(read?.document.voidedAt).toBeInstanceOf(Date);
      expect(read?.document.voidReason).toBe('Wrong');
      expect([empty?.lines, empty?.payments, empty?.sends, empty?.clientLanguage]).toEqual([
        [],
        [],
        [],
        '',
      ]);
      expect([emptyEstimate?.lines, emptyEstimate?.sends]).toEqual([[], []]);
      expect(await expectSameBothWays((on) => readInvoiceDetail(on, Number(archived.id)))).toBe(
        null,
      );
      expect(await expectSameBothWays((on) => readCreditNoteDetail(on, 999999999))).toBe(null);
    });

    it('a stored datetime that is no instant (month 0, which MariaDB stores) reads as the text query read it', async () => {
      const invoice = await createInvoice(test.http);
      const id = Number(invoice.id);
      // The binary protocol alone would answer 10 December 2025 (mysql2 computes the Date).
      await manager.query('UPDATE invoices SET voided_at = ? WHERE id = ?', [
        '2026-00-10 12:00:00',
        id,
      ]);

      const { read, asText } = await bothWays(manager, (on) => readInvoiceDetail(on, id));

      // An invalid Date equals no other in toStrictEqual: compared as text, the rest strictly.
      expect(String(read?.document.voidedAt)).toBe(String(asText?.document.voidedAt));
      if (mysql) expect(String(read?.document.voidedAt)).toBe('Invalid Date');
      const withoutVoidedAt = (detail: InvoiceDetailRecord | null) => ({
        ...detail,
        document: { ...detail?.document, voidedAt: null },
      });
      expect(withoutVoidedAt(read)).toStrictEqual(withoutVoidedAt(asText));
    });

    if (mysql) {
      it('prepares each statement once per connection, and runs a locked read on the transaction’s connection, locking its row only', async () => {
        const invoice = await createInvoice(test.http);
        const other = await createInvoice(test.http);
        const side = await createConnection(
          (process.env.DATABASE_URL ?? '').replace(/^mariadb:/, 'mysql:'),
        );
        try {
          await dataSource.transaction(async (tx) => {
            /** This connection's count of prepared statements and of their runs. */
            const counts = async () => {
              const rows = await tx.query<Array<{ Variable_name: string; Value: string }>>(
                "SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_prepare', 'Com_stmt_execute')",
              );
              return Object.fromEntries(rows.map((row) => [row.Variable_name, Number(row.Value)]));
            };
            const id = Number(invoice.id);
            await lockInvoiceDetail(tx, id);
            await readInvoiceDetail(tx, id);
            const before = await counts();
            await lockInvoiceDetail(tx, id);
            await readInvoiceDetail(tx, id);
            const after = await counts();

            expect(after.Com_stmt_execute - before.Com_stmt_execute).toBe(2);
            expect(after.Com_stmt_prepare - before.Com_stmt_prepare).toBe(0);
            const lockOf = (id: string) =>
              side.query('SELECT id FROM invoices WHERE id = ? FOR UPDATE NOWAIT', [id]);
            await expect(lockOf(invoice.id)).rejects.toMatchObject({
              code: 'ER_LOCK_WAIT_TIMEOUT',
            });
            await expect(lockOf(other.id)).resolves.toBeDefined();
          });
        } finally {
          await side.end();
        }
      });

      it('reads a document with its children without a temporary table (MariaDB streams the union)', async () => {
        const invoice = await createInvoice(test.http, { items: lineItems(20) });
        await payInvoice(test.http, invoice.id, '1.00');
        await sendInvoice(test.http, invoice.id, 'tmp@example.com');
        await dataSource.transaction(async (tx) => {
          const created = async () => {
            const [row] = await tx.query<Array<{ Value: string }>>(
              "SHOW SESSION STATUS LIKE 'Created_tmp_tables'",
            );
            return Number(row.Value);
          };
          await readInvoicePrint(tx, Number(invoice.id));
          const before = await created();
          const detail = await readInvoicePrint(tx, Number(invoice.id));
          await readInvoiceDetail(tx, Number(invoice.id));
          await lockInvoiceDetail(tx, Number(invoice.id));

          expect([detail?.lines.length, detail?.payments.length, detail?.sends.length]).toEqual([
            20, 1, 1,
          ]);
          expect((await created()) - before).toBe(0);
        });
      });
    } else {
      it('reads through manager.query, the statement as it was', async () => {
        const invoice = await createInvoice(test.http);
        const textQuery = jest.spyOn(manager, 'query');
        try {
          await readInvoiceDetail(manager, Number(invoice.id));

          expect(textQuery).toHaveBeenCalledWith(expect.stringMatching(/^SELECT document\./), [
            Number(invoice.id),
          ]);
        } finally {
          textQuery.mockRestore();
        }
      });
    }
  });

  describe('the count check', () => {
    const payment = {
      id: 1,
      invoice_id: 1,
      reference: 'R',
      status: 'Completed',
      amount: '1.0000',
      method: 'Cash',
      payment_date: '2026-03-10',
      reason: '',
      credit_note_id: null,
      created_at: '2026-03-10 12:00:00',
    };
    /** `children()` JSON of these rows, with `count` as given. */
    const childJson = (count: number, rows: Array<Record<string, unknown>>) =>
      JSON.stringify({
        count,
        columns: Object.fromEntries(
          Object.keys(payment).map((key) => [key, rows.map((row) => row[key])]),
        ),
      });

    it('reads rows column by column, and none from null arrays', () => {
      const rows = recordRows(manager);
      const [read] = rows.childEntities(InvoicePayment, childJson(1, [payment]));
      expect(read).toBeInstanceOf(InvoicePayment);
      expect([read.id, read.reference, fixed(read.amount)]).toEqual([1, 'R', '1.0000']);
      const noArrays = JSON.stringify({
        count: 0,
        columns: Object.fromEntries(Object.keys(payment).map((key) => [key, null])),
      });
      expect(rows.childEntities(InvoicePayment, noArrays)).toEqual([]);
    });

    it('refuses arrays shorter than the count, and a missing aggregate', () => {
      const rows = recordRows(manager);
      expect(() => rows.childEntities(InvoicePayment, childJson(2, [payment]))).toThrow(
        'invoice_payments.id: 1 values read of 2',
      );
      const oneShort = JSON.parse(childJson(2, [payment, { ...payment, id: 2 }])) as {
        columns: Record<string, unknown[]>;
      };
      oneShort.columns.reference.pop();
      expect(() => rows.childEntities(InvoicePayment, JSON.stringify(oneShort))).toThrow(
        'invoice_payments.reference: 1 values read of 2',
      );
      expect(() => rows.childEntities(InvoicePayment, null)).toThrow();
    });
  });

  describe('union rows (MySQL/MariaDB)', () => {
    const mysql = testDialect() === 'mysql';
    /** A payment's row of a union part, as each database answers it: MySQL/MariaDB as text. */
    const paymentRow = {
      part: 4,
      c0: mysql ? '7' : 7,
      c1: mysql ? '3' : 3,
      c2: 'R',
      c3: 'Completed',
      c4: '1.5000',
      c5: 'Cash',
      c6: '2026-03-10',
      c7: '',
      c8: null,
      c9: '2026-03-10 12:00:00',
      c10: null,
    };

    it('hydrates a row cell by cell in the entity’s column order, numbers as numbers', () => {
      const read = recordRows(manager).unionEntity(InvoicePayment, paymentRow);

      expect(read).toBeInstanceOf(InvoicePayment);
      expect([read.id, read.invoiceId, read.reference, fixed(read.amount)]).toEqual([
        7,
        3,
        'R',
        '1.5000',
      ]);
      expect([read.paymentDate, read.creditNoteId]).toEqual(['2026-03-10', null]);
      if (mysql) expect(read.createdAt).toEqual(new Date('2026-03-10T12:00:00.000Z'));
    });

    it('refuses a row without one of the entity’s cells', () => {
      const { c9: _createdAt, ...short } = paymentRow;
      expect(() => recordRows(manager).unionEntity(InvoicePayment, short)).toThrow(
        'invoice_payments: c9 not read',
      );
    });
  });
});
