import { addClient, createClient } from './factories/clients';
import {
  addEstimate,
  clientEstimates,
  createEstimate,
  ESTIMATE_CLIENT_KEYS,
  ESTIMATE_LIST_KEYS,
  ESTIMATE_WRITE_KEYS,
  EstimateDetail,
  estimateInput,
  EstimateListItem,
  estimateNumber,
  EstimateWriteResult,
  EstimateWritten,
  LINE_READ_KEYS,
  LINE_WRITE_KEYS,
  listEstimates,
  plainReadLine,
  plainTaxBreakdown,
  plainTaxTerms,
  readEstimate,
  SEND_LOG_KEYS,
  sendEstimate,
} from './factories/estimates';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  ID,
  keysOf,
  NON_DIGIT_IDS,
  nextSecond,
  SHORT_CODE,
  timeWindow,
  TIMESTAMP,
  UNKNOWN_IDS,
} from './setup/expectations';

/*
 * The six estimate endpoints of the specification and the estimates embedded in the client
 * read: exact key sets and exact values. Money rules shared with invoices are in
 * estimates-rules.e2e-spec.ts, conversion in estimates-convert.e2e-spec.ts.
 */

/** A send as the log shows it before delivery: no worker runs in this file (OUTBOX_POLL_MS=0). */
const DELIVERY = { delivery: 'queued', attempts: 0, kind: 'document' };

/** The written form of an estimate (estimate_no) as the list and read name it (reference_no). */
function asListed(written: EstimateWritten): EstimateListItem {
  const { estimate_no: referenceNo, ...rest } = written;
  return { ...rest, reference_no: referenceNo };
}

describe('Estimates', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  /** Three lines whose amounts round: 3 × 10.125 = 30.375 → 30.38, 0.5 × 0.01 = 0.005 → 0.01. */
  const threeLines = [
    { description: 'Design', quantity: 3, rate: '10.125' },
    { description: 'Hosting', quantity: '0.5', rate: '0.01' },
    { description: 'Support', quantity: 2, rate: '19.99' },
  ];

  describe('POST /v1/estimate/add', () => {
    it('answers the estimate as an array of one with estimate_no and no timestamps, and lines without amounts', async () => {
      const client = await addClient(test.http, {
        names: 'Acme Ltd',
        phone: '+1 555 0100',
        address: '1 Main Street, Springfield',
        tax_id: 'US 98-7654321',
        country: 'US',
      });
      const response = await test.http.post('/v1/estimate/add').send({
        client: client.id,
        estimate_no: 'EST-SHAPE-1',
        accepted: 'True',
        description: 'Website redesign',
        currency: 'usd',
        tax_rate: '8.25',
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        note: 'Valid for 30 days',
        items: threeLines,
      });

      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(keysOf(body)).toEqual(['estimate', 'items', 'status', 'tax_breakdown']);
      expect(body.estimate).toHaveLength(1);
      const [estimate] = body.estimate;
      expect(keysOf(estimate)).toEqual(ESTIMATE_WRITE_KEYS);
      expect(estimate).toEqual({
        id: expect.stringMatching(ID),
        short_code: expect.stringMatching(SHORT_CODE),
        estimate_no: 'EST-SHAPE-1',
        description: 'Website redesign',
        customer_id: client.id,
        customer_name: 'Acme Ltd',
        customer_phone: '+1 555 0100',
        customer_address: '1 Main Street, Springfield',
        customer_tax_id: 'US 98-7654321',
        customer_country: 'US',
        currency: 'USD',
        tax_rate: 8.25,
        // 30.38 + 0.01 + 39.98 = 70.37; 70.37 × 8.25% = 5.805525 → 5.81.
        tax_amount: 5.81,
        sub_total: 70.37,
        total: 76.18,
        accepted: 'True',
        draft: false,
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        note: 'Valid for 30 days',
        ...plainTaxTerms(),
      });
      expect(body.items).toEqual([
        { description: 'Design', quantity: 3, rate: '10.125' },
        { description: 'Hosting', quantity: 0.5, rate: '0.01' },
        { description: 'Support', quantity: 2, rate: '19.99' },
      ]);
      for (const item of body.items) expect(keysOf(item)).toEqual(LINE_WRITE_KEYS);
      expect(body.tax_breakdown).toEqual(plainTaxBreakdown(8.25, '70.37', '5.81'));
    });

    it('defaults accepted to "False"', async () => {
      const estimate = await createEstimate(test.http);
      expect(estimate.accepted).toBe('False');
      expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('False');
    });

    it.each([
      ['True', 'True'],
      ['true', 'True'],
      ['TRUE', 'True'],
      ['tRuE', 'True'],
      [true, 'True'],
      ['False', 'False'],
      ['false', 'False'],
      ['FALSE', 'False'],
      ['fAlSe', 'False'],
      [false, 'False'],
    ])('reads accepted %p as %p and keeps it', async (given, output) => {
      const estimate = await createEstimate(test.http, { accepted: given });
      expect(estimate.accepted).toBe(output);
      expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe(output);
    });

    it.each<[unknown]>([
      ['yes'],
      ['no'],
      ['1'],
      ['0'],
      [''],
      ['Truee'],
      [1],
      [0],
      [['True']],
      [{ value: true }],
    ])('refuses accepted %p with 422 naming accepted', async (given) => {
      const client = await createClient(test.http);
      const response = await test.http
        .post('/v1/estimate/add')
        .send({ ...estimateInput(client), accepted: given });
      expectValidationError(response, ['accepted']);
    });

    it('reads an estimate from a URL-encoded form, items as items[0][description]', async () => {
      const client = await createClient(test.http);
      const response = await test.http
        .post('/v1/estimate/add')
        .type('form')
        .send(
          `client=${client}&estimate_no=EST-FORM-1&accepted=true&tax_rate=10` +
            '&items[0][description]=Audit&items[0][quantity]=2&items[0][rate]=12.50' +
            '&items[1][description]=Report&items[1][quantity]=1&items[1][rate]=5',
        );
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toMatchObject({
        estimate_no: 'EST-FORM-1',
        accepted: 'True',
        sub_total: 30,
        tax_amount: 3,
        total: 33,
      });
      expect(body.items).toEqual([
        { description: 'Audit', quantity: 2, rate: '12.50' },
        { description: 'Report', quantity: 1, rate: '5.00' },
      ]);
    });

    it('trims the estimate number', async () => {
      const estimate = await createEstimate(test.http, { estimate_no: '  EST-TRIM-1  ' });
      expect(estimate.estimate_no).toBe('EST-TRIM-1');
      expect((await readEstimate(test.http, estimate.id)).estimate[0].reference_no).toBe(
        'EST-TRIM-1',
      );
    });

    it('answers 422 naming every missing required parameter', async () => {
      const response = await test.http.post('/v1/estimate/add').send({ note: 'nothing else' });
      expectValidationError(response, ['client', 'items']);
    });

    it.each([[''], ['   '], ['x'.repeat(65)]])('answers 422 for estimate_no %p', async (number) => {
      const client = await createClient(test.http);
      const response = await test.http
        .post('/v1/estimate/add')
        .send(estimateInput(client, { estimate_no: number }));
      expectValidationError(response, ['estimate_no']);
    });

    it('accepts an estimate_no of 64 characters', async () => {
      const number = `E${'9'.repeat(63)}`;
      expect((await createEstimate(test.http, { estimate_no: number })).estimate_no).toBe(number);
    });

    it('copies the customer fields from the client, "" where the client has none', async () => {
      const client = await addClient(test.http, { names: 'Bare Client' });
      const estimate = await createEstimate(test.http, { client: client.id });
      expect(estimate).toMatchObject({
        customer_id: client.id,
        customer_name: 'Bare Client',
        customer_phone: '',
        customer_address: '',
        description: '',
        note: '',
      });
    });
  });

  describe('GET /v1/estimate/{id}', () => {
    it('answers the estimate with reference_no and no timestamps, lines with amounts, and the send log', async () => {
      const client = await addClient(test.http, {
        names: 'Read Co',
        phone: '555-0101',
        address: 'Road 2',
      });
      const added = await addEstimate(test.http, {
        client: client.id,
        estimate_no: 'EST-READ-1',
        description: 'Shop fit-out',
        tax_rate: '8.25',
        issue_date: '2026-04-01',
        due_date: '2026-04-02',
        note: 'Thanks',
        items: threeLines,
      });
      const id = added.estimate[0].id;

      const response = await test.http.get(`/v1/estimate/${id}`);
      const body = expectSuccess(response) as unknown as EstimateDetail;
      expect(keysOf(body)).toEqual(['estimate', 'items', 'send_log', 'status', 'tax_breakdown']);
      expect(body.estimate).toHaveLength(1);
      expect(keysOf(body.estimate[0])).toEqual(ESTIMATE_LIST_KEYS);
      expect(body.estimate[0]).toEqual({
        id,
        short_code: added.estimate[0].short_code,
        reference_no: 'EST-READ-1',
        description: 'Shop fit-out',
        customer_id: client.id,
        customer_name: 'Read Co',
        customer_phone: '555-0101',
        customer_address: 'Road 2',
        customer_tax_id: '',
        customer_country: '',
        currency: 'USD',
        tax_rate: 8.25,
        tax_amount: 5.81,
        sub_total: 70.37,
        total: 76.18,
        accepted: 'False',
        draft: false,
        issue_date: '2026-04-01',
        due_date: '2026-04-02',
        note: 'Thanks',
        ...plainTaxTerms(),
      });
      expect(body.items).toEqual([
        plainReadLine(
          { description: 'Design', quantity: 3, rate: '10.125', amount: '30.38' },
          8.25,
        ),
        plainReadLine(
          { description: 'Hosting', quantity: 0.5, rate: '0.01', amount: '0.01' },
          8.25,
        ),
        plainReadLine(
          { description: 'Support', quantity: 2, rate: '19.99', amount: '39.98' },
          8.25,
        ),
      ]);
      for (const item of body.items) expect(keysOf(item)).toEqual(LINE_READ_KEYS);
      expect(body.tax_breakdown).toEqual(plainTaxBreakdown(8.25, '70.37', '5.81'));
      expect(body.send_log).toEqual([]);
    });

    it('carries line amounts as text with exactly the currency minor digits, rates with at least them', async () => {
      const estimate = await createEstimate(test.http, {
        items: [
          { description: 'Flat', quantity: 2, rate: 5 },
          { description: 'Tenth', quantity: 3, rate: '0.1' },
        ],
      });
      const response = await test.http.get(`/v1/estimate/${estimate.id}`).expect(200);
      // Digit for digit in the JSON text: 0.30, not 0.30000000000000004 or 0.3.
      expect(response.text).toContain('"rate":"5.00","amount":"10.00"');
      expect(response.text).toContain('"rate":"0.10","amount":"0.30"');
      expect(response.text).toMatch(/"sub_total":10\.30[,}]/);
      expect(response.text).toMatch(/"tax_rate":0[,}]/);
      expect(response.text).toMatch(/"tax_amount":0\.00[,}]/);
    });

    it('lists the send log oldest first, each entry {email, date, delivery, attempts}', async () => {
      const estimate = await createEstimate(test.http);
      const window = timeWindow();
      await sendEstimate(test.http, estimate.id, 'first@example.com');
      await sendEstimate(test.http, estimate.id, 'second@example.com');
      const { send_log: sendLog } = await readEstimate(test.http, estimate.id);
      expect(sendLog).toEqual([
        { email: 'first@example.com', date: expect.stringMatching(TIMESTAMP), ...DELIVERY },
        { email: 'second@example.com', date: expect.stringMatching(TIMESTAMP), ...DELIVERY },
      ]);
      for (const entry of sendLog) {
        expect(keysOf(entry)).toEqual(SEND_LOG_KEYS);
        expect(window.contains(entry.date)).toBe(true);
      }
    });

    it.each([...NON_DIGIT_IDS, ...UNKNOWN_IDS])('answers 404 for id %p', async (id) => {
      expectError(await test.http.get(`/v1/estimate/${id}`), 404);
    });
  });

  describe('GET /v1/estimate/all', () => {
    it('answers every live estimate in id order with reference_no, no timestamps and no estimate_no', async () => {
      const first = await createEstimate(test.http, { items: threeLines, tax_rate: '8.25' });
      const second = await createEstimate(test.http, {
        accepted: true,
        currency: 'JPY',
        items: [{ description: 'A', quantity: 1, rate: 1500 }],
      });

      const response = await test.http.get('/v1/estimate/all');
      const body = expectSuccess(response) as unknown as { data: EstimateListItem[] };
      expect(keysOf(body)).toEqual(['data', 'status']);
      for (const item of body.data) expect(keysOf(item)).toEqual(ESTIMATE_LIST_KEYS);
      const ids = body.data.map((item) => Number(item.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);

      const byId = new Map(body.data.map((item) => [item.id, item]));
      expect(byId.get(first.id)).toEqual(asListed(first));
      expect(byId.get(second.id)).toEqual(asListed(second));
      expect(byId.get(second.id)).toMatchObject({
        currency: 'JPY',
        sub_total: 1500,
        total: 1500,
        accepted: 'True',
      });
    });

    it('shows each estimate exactly as its read does', async () => {
      const estimate = await createEstimate(test.http, { items: threeLines, note: 'same' });
      const listed = (await listEstimates(test.http)).find((item) => item.id === estimate.id);
      expect(listed).toEqual((await readEstimate(test.http, estimate.id)).estimate[0]);
    });
  });

  describe('PUT /v1/estimate/{id}', () => {
    it('answers the add shape: estimate_no, no timestamps, lines without amounts', async () => {
      const estimate = await createEstimate(test.http, { accepted: 'False' });
      const otherClient = await addClient(test.http, {
        names: 'New Owner',
        phone: '777',
        address: 'Elm 3',
        tax_id: 'KW-777',
        country: 'kw',
      });
      const response = await test.http.put(`/v1/estimate/${estimate.id}`).send({
        client: otherClient.id,
        estimate_no: 'EST-UPD-1',
        accepted: 'TRUE',
        description: 'Revised scope',
        currency: 'KWD',
        tax_rate: 5,
        issue_date: '2026-05-01',
        due_date: '2026-05-20',
        note: 'Revised',
        items: [
          { description: 'Survey', quantity: 3, rate: '1.2345' },
          { description: 'Permit', quantity: '0.25', rate: '0.002' },
        ],
      });

      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(keysOf(body)).toEqual(['estimate', 'items', 'status', 'tax_breakdown']);
      expect(body.estimate).toHaveLength(1);
      expect(keysOf(body.estimate[0])).toEqual(ESTIMATE_WRITE_KEYS);
      expect(body.estimate[0]).toEqual({
        id: estimate.id,
        short_code: estimate.short_code,
        estimate_no: 'EST-UPD-1',
        description: 'Revised scope',
        customer_id: otherClient.id,
        customer_name: 'New Owner',
        customer_phone: '777',
        customer_address: 'Elm 3',
        customer_tax_id: 'KW-777',
        customer_country: 'KW',
        currency: 'KWD',
        tax_rate: 5,
        // 3.7035 → 3.704, 0.0005 → 0.001; 3.705 × 5% = 0.18525 → 0.185.
        tax_amount: 0.185,
        sub_total: 3.705,
        total: 3.89,
        accepted: 'True',
        draft: false,
        issue_date: '2026-05-01',
        due_date: '2026-05-20',
        note: 'Revised',
        ...plainTaxTerms('KWD'),
      });
      expect(response.text).toMatch(/"total":3\.890[,}]/);
      expect(body.items).toEqual([
        { description: 'Survey', quantity: 3, rate: '1.2345' },
        { description: 'Permit', quantity: 0.25, rate: '0.002' },
      ]);
      for (const item of body.items) expect(keysOf(item)).toEqual(LINE_WRITE_KEYS);
      expect(body.tax_breakdown).toEqual(plainTaxBreakdown(5, '3.705', '0.185'));

      const read = await readEstimate(test.http, estimate.id);
      expect(read.estimate[0]).toEqual(asListed(body.estimate[0]));
      expect(read.items).toEqual([
        plainReadLine(
          { description: 'Survey', quantity: 3, rate: '1.2345', amount: '3.704' },
          5,
          'KWD',
        ),
        plainReadLine(
          { description: 'Permit', quantity: 0.25, rate: '0.002', amount: '0.001' },
          5,
          'KWD',
        ),
      ]);
      expect(read.tax_breakdown).toEqual(body.tax_breakdown);
    });

    it('keeps the lines when items are omitted, and the other stored values with them', async () => {
      const added = await addEstimate(test.http, {
        items: threeLines,
        tax_rate: '8.25',
        description: 'Keep me',
        note: 'Keep note',
        issue_date: '2026-02-01',
        due_date: '2026-02-10',
      });
      const [estimate] = added.estimate;
      const before = await readEstimate(test.http, estimate.id);

      const response = await test.http
        .put(`/v1/estimate/${estimate.id}`)
        .send({ client: estimate.customer_id, estimate_no: estimate.estimate_no });
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toEqual(estimate);
      expect(body.items).toEqual(added.items);

      const after = await readEstimate(test.http, estimate.id);
      expect(after.estimate).toEqual(before.estimate);
      expect(after.items).toEqual(before.items);
      expect(after.tax_breakdown).toEqual(before.tax_breakdown);
    });

    it('replaces all lines when items are given', async () => {
      const estimate = await createEstimate(test.http, { items: threeLines });
      const response = await test.http.put(`/v1/estimate/${estimate.id}`).send({
        client: estimate.customer_id,
        estimate_no: estimate.estimate_no,
        items: [{ description: 'Only line', quantity: '1.5', rate: '2.25' }],
      });
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(body.items).toEqual([{ description: 'Only line', quantity: 1.5, rate: '2.25' }]);
      // 1.5 × 2.25 = 3.375 → 3.38.
      expect(body.estimate[0]).toMatchObject({ sub_total: 3.38, tax_amount: 0, total: 3.38 });
      const read = await readEstimate(test.http, estimate.id);
      expect(read.items).toEqual([
        plainReadLine({ description: 'Only line', quantity: 1.5, rate: '2.25', amount: '3.38' }),
      ]);
    });

    it('re-rounds the kept lines when only the currency changes', async () => {
      const estimate = await createEstimate(test.http, {
        items: [
          { description: 'Half', quantity: 3, rate: '0.5' },
          { description: 'Whole', quantity: 1, rate: '100' },
        ],
      });
      expect(estimate.sub_total).toBe(101.5);
      const response = await test.http
        .put(`/v1/estimate/${estimate.id}`)
        .send({ client: estimate.customer_id, estimate_no: estimate.estimate_no, currency: 'JPY' });
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toMatchObject({ currency: 'JPY', sub_total: 102, total: 102 });
      expect(response.text).toMatch(/"sub_total":102[,}]/);
      const read = await readEstimate(test.http, estimate.id);
      expect(read.items.map((item) => [item.rate, item.amount])).toEqual([
        ['0.5', '2'],
        ['100', '100'],
      ]);
    });

    it('keeps the stored accepted when accepted is omitted, and sets it when given', async () => {
      const estimate = await createEstimate(test.http, { accepted: 'True' });
      const put = (extra: object) =>
        test.http
          .put(`/v1/estimate/${estimate.id}`)
          .send({ client: estimate.customer_id, estimate_no: estimate.estimate_no, ...extra });

      expect(expectSuccess(await put({})).estimate).toEqual([
        expect.objectContaining({ accepted: 'True' }),
      ]);
      expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('True');

      expect(expectSuccess(await put({ accepted: false })).estimate).toEqual([
        expect.objectContaining({ accepted: 'False' }),
      ]);
      expect(expectSuccess(await put({ note: 'still false' })).estimate).toEqual([
        expect.objectContaining({ accepted: 'False' }),
      ]);
      expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('False');

      expectValidationError(await put({ accepted: 'maybe' }), ['accepted']);
      expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('False');
    });

    it('moves updated_at and keeps created_at', async () => {
      const client = await createClient(test.http);
      const estimate = await createEstimate(test.http, { client });
      const [before] = (await clientEstimates(test.http, client)).filter(
        (item) => item.id === estimate.id,
      );
      expect(before.updated_at).toBe(before.created_at);

      await nextSecond();
      const window = timeWindow();
      await test.http
        .put(`/v1/estimate/${estimate.id}`)
        .send({ client, estimate_no: estimate.estimate_no, note: 'changed' })
        .expect(200);
      const [after] = (await clientEstimates(test.http, client)).filter(
        (item) => item.id === estimate.id,
      );
      expect(after.created_at).toBe(before.created_at);
      expect(after.updated_at > before.updated_at).toBe(true);
      expect(window.contains(after.updated_at)).toBe(true);
    });

    it('requires client (estimate_no left out keeps the number), and refuses empty items', async () => {
      const estimate = await createEstimate(test.http);
      expectValidationError(await test.http.put(`/v1/estimate/${estimate.id}`).send({}), [
        'client',
      ]);
      expectValidationError(
        await test.http
          .put(`/v1/estimate/${estimate.id}`)
          .send({ client: estimate.customer_id, estimate_no: estimate.estimate_no, items: [] }),
        ['items'],
      );
      expect((await readEstimate(test.http, estimate.id)).items).toHaveLength(1);
    });

    it('answers 422 for an unknown or archived client and leaves the estimate as it was', async () => {
      const estimate = await createEstimate(test.http);
      const archived = await createClient(test.http);
      await test.http.delete(`/v1/client/${archived}`).expect(200);
      const before = await readEstimate(test.http, estimate.id);

      for (const client of ['999999', archived]) {
        const response = await test.http
          .put(`/v1/estimate/${estimate.id}`)
          .send({ client, estimate_no: estimate.estimate_no, note: 'refused' });
        expectValidationError(response, ['client']);
      }
      expect(await readEstimate(test.http, estimate.id)).toEqual(before);
    });

    it.each([...NON_DIGIT_IDS, ...UNKNOWN_IDS])('answers 404 for id %p', async (id) => {
      const client = await createClient(test.http);
      const response = await test.http.put(`/v1/estimate/${id}`).send(estimateInput(client));
      expectError(response, 404);
    });
  });

  describe('POST /v1/estimate/send', () => {
    it('answers {status, message} and appends {email, date, delivery, attempts} to the send log', async () => {
      const estimate = await createEstimate(test.http);
      const window = timeWindow();
      const response = await test.http
        .post('/v1/estimate/send')
        .send({ id: estimate.id, email: 'buyer@example.com', phone: '+1 555 0199' });
      const body = expectSuccess(response);
      expect(keysOf(body)).toEqual(['message', 'status']);
      expect(body.message).toEqual(expect.any(String));
      expect(body.message).not.toBe('');

      const { send_log: sendLog } = await readEstimate(test.http, estimate.id);
      expect(sendLog).toEqual([
        { email: 'buyer@example.com', date: expect.stringMatching(TIMESTAMP), ...DELIVERY },
      ]);
      expect(window.contains(sendLog[0].date)).toBe(true);
    });

    it('accepts the id as a JSON number', async () => {
      const estimate = await createEstimate(test.http);
      await test.http
        .post('/v1/estimate/send')
        .send({ id: Number(estimate.id), email: 'n@example.com' })
        .expect(200);
      expect((await readEstimate(test.http, estimate.id)).send_log).toHaveLength(1);
    });

    it('changes neither accepted nor updated_at, nor anything else of the estimate', async () => {
      const client = await createClient(test.http);
      for (const accepted of ['True', 'False']) {
        const estimate = await createEstimate(test.http, { client, accepted, items: threeLines });
        const before = await readEstimate(test.http, estimate.id);
        const [listedBefore] = (await clientEstimates(test.http, client)).filter(
          (item) => item.id === estimate.id,
        );

        await nextSecond();
        await sendEstimate(test.http, estimate.id, 'client@example.com');

        const after = await readEstimate(test.http, estimate.id);
        expect(after.estimate).toEqual(before.estimate);
        expect(after.estimate[0].accepted).toBe(accepted);
        expect(after.items).toEqual(before.items);
        const [listedAfter] = (await clientEstimates(test.http, client)).filter(
          (item) => item.id === estimate.id,
        );
        expect(listedAfter).toEqual(listedBefore);
      }
    });

    it.each([
      [{}, ['email']],
      [{ email: '' }, ['email']],
      [{ email: 'not-an-email' }, ['email']],
      [{ email: 'two@@example.com' }, ['email']],
      [{ email: ['a@example.com'] }, ['email']],
    ])('answers 422 for %p and logs nothing', async (extra, fields) => {
      const estimate = await createEstimate(test.http);
      const response = await test.http
        .post('/v1/estimate/send')
        .send({ id: estimate.id, ...extra });
      expectValidationError(response, fields);
      expect((await readEstimate(test.http, estimate.id)).send_log).toEqual([]);
    });

    it('answers 422 without an id', async () => {
      expectValidationError(
        await test.http.post('/v1/estimate/send').send({ email: 'a@example.com' }),
        ['id'],
      );
    });

    it('answers 404 for an unknown estimate', async () => {
      expectError(
        await test.http.post('/v1/estimate/send').send({ id: '999999', email: 'a@example.com' }),
        404,
      );
    });
  });

  describe('DELETE /v1/estimate/{id}', () => {
    it('answers {status: "success", id} and nothing else', async () => {
      const estimate = await createEstimate(test.http);
      const response = await test.http.delete(`/v1/estimate/${estimate.id}`);
      expect(expectSuccess(response)).toEqual({ status: 'success', id: estimate.id });
    });

    it('archives: then read, update, delete, send and convert answer 404', async () => {
      const estimate = await createEstimate(test.http);
      await sendEstimate(test.http, estimate.id, 'before@example.com');
      await test.http.delete(`/v1/estimate/${estimate.id}`).expect(200);

      expectError(await test.http.get(`/v1/estimate/${estimate.id}`), 404);
      expectError(
        await test.http
          .put(`/v1/estimate/${estimate.id}`)
          .send({ client: estimate.customer_id, estimate_no: estimate.estimate_no }),
        404,
      );
      expectError(await test.http.delete(`/v1/estimate/${estimate.id}`), 404);
      expectError(
        await test.http.post('/v1/estimate/send').send({ id: estimate.id, email: 'a@example.com' }),
        404,
      );
      expectError(
        await test.http
          .post(`/v1/estimate/${estimate.id}/convert`)
          .send({ invoice_no: estimateNumber('INV') }),
        404,
      );
    });

    it('takes the estimate out of the list and out of the client read, and leaves the others', async () => {
      const client = await createClient(test.http);
      const kept = await createEstimate(test.http, { client });
      const archived = await createEstimate(test.http, { client });
      await test.http.delete(`/v1/estimate/${archived.id}`).expect(200);

      const listedIds = (await listEstimates(test.http)).map((item) => item.id);
      expect(listedIds).toContain(kept.id);
      expect(listedIds).not.toContain(archived.id);
      expect((await clientEstimates(test.http, client)).map((item) => item.id)).toEqual([kept.id]);
      expect((await readEstimate(test.http, kept.id)).estimate[0]).toEqual(asListed(kept));
    });

    it.each([...NON_DIGIT_IDS, ...UNKNOWN_IDS])('answers 404 for id %p', async (id) => {
      expectError(await test.http.delete(`/v1/estimate/${id}`), 404);
    });
  });

  describe('GET /v1/client/{id}', () => {
    it("embeds the client's live estimates in id order, with reference_no and both timestamps", async () => {
      const client = await createClient(test.http);
      const otherClient = await createClient(test.http);
      const window = timeWindow();
      const first = await createEstimate(test.http, {
        client,
        items: threeLines,
        tax_rate: '8.25',
      });
      await createEstimate(test.http, { client: otherClient });
      const second = await createEstimate(test.http, { client, accepted: 'true', currency: 'KWD' });

      const response = await test.http.get(`/v1/client/${client}`);
      const body = expectSuccess(response);
      expect(keysOf(body)).toEqual(['data', 'estimates', 'invoices', 'status']);
      const estimates = body.estimates as Array<
        EstimateListItem & { created_at: string; updated_at: string }
      >;
      expect(estimates.map((item) => item.id)).toEqual([first.id, second.id]);
      for (const [embedded, written] of [
        [estimates[0], first],
        [estimates[1], second],
      ] as const) {
        expect(keysOf(embedded)).toEqual(ESTIMATE_CLIENT_KEYS);
        expect(embedded).toEqual({
          ...asListed(written),
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: embedded.created_at,
        });
        expect(window.contains(embedded.created_at)).toBe(true);
      }
    });

    it('answers an empty estimates array for a client without estimates', async () => {
      const client = await createClient(test.http);
      expect(await clientEstimates(test.http, client)).toEqual([]);
    });
  });

  describe('estimates of an archived client', () => {
    it('stay readable and listed with their copied customer fields; a new one answers 422', async () => {
      const client = await addClient(test.http, {
        names: 'Gone Soon',
        phone: '123',
        address: 'Old Road',
      });
      const estimate = await createEstimate(test.http, { client: client.id });
      await test.http.delete(`/v1/client/${client.id}`).expect(200);

      const read = await readEstimate(test.http, estimate.id);
      expect(read.estimate[0]).toEqual(asListed(estimate));
      expect(read.estimate[0]).toMatchObject({
        customer_name: 'Gone Soon',
        customer_phone: '123',
        customer_address: 'Old Road',
      });
      expect((await listEstimates(test.http)).find((item) => item.id === estimate.id)).toEqual(
        asListed(estimate),
      );

      const response = await test.http.post('/v1/estimate/add').send(estimateInput(client.id));
      expectValidationError(response, ['client']);
    });
  });
});
