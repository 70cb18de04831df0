import { createClient } from './factories/clients';
import {
  createInvoice,
  lineItems,
  listInvoices,
  payInvoice,
  readInvoice,
  refundInvoice,
  sendInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { QueryCounter } from './setup/query-counter';

/*
 * A read costs a fixed number of statements, whatever the record holds (STYLE.md 11): the
 * count for a small record equals the count for a large one, so no per-row query hides in it.
 */
describe('Invoices: queries per read', () => {
  let test: TestApp;
  let queries: QueryCounter;

  beforeAll(async () => {
    test = await createTestApp();
    queries = new QueryCounter(test.app);
  });

  afterAll(async () => {
    queries.restore();
    await test.close();
  });

  const get = (path: string) => () => test.http.get(path).expect(200);

  it('counts every statement, BEGIN and COMMIT included', async () => {
    const invoice = await createInvoice(test.http);
    // A write is a transaction. 1 BEGIN; 2 the invoice locked and read whole (its lines, ledger
    // and send log folded in, for the event's data); 3 INSERT of the ledger entry; 4 UPDATE of
    // the invoice's sums; 5 INSERT of the event, whose data is the read of 2 with 3 and 4
    // applied in memory; 6 INSERT … SELECT of its webhook deliveries; 7 COMMIT. The raw
    // baseline sends 1, a bare lock, 3, 4 and 7: the event is the two more.
    const count = await queries.measure(() => payInvoice(test.http, invoice.id, '1.00'));
    expect(count).toBe(7);
  });

  it('counts the other changes to the invoice row the same way: no read after the change', async () => {
    const invoice = await createInvoice(test.http);
    await payInvoice(test.http, invoice.id, '5.00');
    // BEGIN, the lock reading the invoice whole, the refund entry, the invoice's sums, the
    // event, its webhook deliveries, COMMIT.
    const refund = () => refundInvoice(test.http, invoice.id, '5.00');
    expect(await queries.measure(refund)).toBe(7);
    // BEGIN, the lock reading the invoice whole, the flag, the event, its deliveries, COMMIT.
    const markPaid = () => test.http.get(`/v1/invoice/paid/${invoice.id}`).expect(200);
    expect(await queries.measure(markPaid)).toBe(6);
    const markNotPaid = () => test.http.get(`/v1/invoice/not-paid/${invoice.id}`).expect(200);
    expect(await queries.measure(markNotPaid)).toBe(6);
    // The same for a void: its fields instead of the flag.
    const voidIt = () => test.http.post(`/v1/invoice/${invoice.id}/void`).send({}).expect(200);
    expect(await queries.measure(voidIt)).toBe(6);
  });

  it('GET /invoice/{id} is one statement without sends, whatever its lines and payments', async () => {
    const small = await createInvoice(test.http, { items: lineItems(1) });
    const large = await createInvoice(test.http, { items: lineItems(30, { rate: '10.00' }) });
    for (let payment = 0; payment < 5; payment++) await payInvoice(test.http, large.id, '10.00');
    const detail = await readInvoice(test.http, large.id);
    expect([detail.items.length, detail.payments.length]).toEqual([30, 5]);

    // The invoice, its lines, payments and sends in one statement: no transaction needed.
    expect(await queries.measure(get(`/v1/invoice/${small.id}`))).toBe(1);
    expect(await queries.measure(get(`/v1/invoice/${large.id}`))).toBe(1);
  });

  it('GET /invoice/{id} is two statements once sent (the delivery states), however many sends', async () => {
    const once = await createInvoice(test.http, { items: lineItems(1) });
    await sendInvoice(test.http, once.id, 'first@example.com');
    const often = await createInvoice(test.http, { items: lineItems(30, { rate: '10.00' }) });
    for (let payment = 0; payment < 5; payment++) await payInvoice(test.http, often.id, '10.00');
    for (let send = 0; send < 3; send++)
      await sendInvoice(test.http, often.id, `to${send}@example.com`);
    const detail = await readInvoice(test.http, often.id);
    expect([detail.items.length, detail.payments.length, detail.send_log.length]).toEqual([
      30, 5, 3,
    ]);

    expect(await queries.measure(get(`/v1/invoice/${once.id}`))).toBe(2);
    expect(await queries.measure(get(`/v1/invoice/${often.id}`))).toBe(2);
  });

  it('GET /invoice/all costs the same with 1 invoice as with 25', async () => {
    // The list holds live invoices only: archive what earlier tests left, to count exactly.
    for (const invoice of await listInvoices(test.http)) {
      await test.http.delete(`/v1/invoice/${invoice.id}`).expect(200);
    }
    const client = await createClient(test.http);
    await createInvoice(test.http, { client, items: lineItems(3) });
    expect(await listInvoices(test.http)).toHaveLength(1);
    const oneCount = await queries.measure(get('/v1/invoice/all'));

    const otherClient = await createClient(test.http);
    for (let index = 1; index < 25; index++) {
      const invoice = await createInvoice(test.http, {
        client: index % 2 === 0 ? client : otherClient,
        items: lineItems(2),
      });
      if (index % 5 === 0) await payInvoice(test.http, invoice.id, '1.00');
    }
    expect(await listInvoices(test.http)).toHaveLength(25);
    const manyCount = await queries.measure(get('/v1/invoice/all'));

    expect(manyCount).toBe(oneCount);
    expect(oneCount).toBe(1);
  });

  it('GET /client/{id} costs the same with 1 invoice as with 10', async () => {
    const one = await createClient(test.http);
    await createInvoice(test.http, { client: one });
    const ten = await createClient(test.http);
    for (let index = 0; index < 10; index++) {
      const invoice = await createInvoice(test.http, { client: ten, items: lineItems(2) });
      if (index % 3 === 0) await payInvoice(test.http, invoice.id, '1.00');
    }

    const read = (id: string) => async () => {
      const response = await test.http.get(`/v1/client/${id}`).expect(200);
      return (response.body as { invoices: unknown[] }).invoices;
    };
    expect(await read(one)()).toHaveLength(1);
    expect(await read(ten)()).toHaveLength(10);

    const oneCount = await queries.measure(read(one));
    const tenCount = await queries.measure(read(ten));

    expect(tenCount).toBe(oneCount);
    // The client, its invoices, its estimates: one statement each, no transaction.
    expect(oneCount).toBe(3);
  });
});
