import { addClient, ClientOutput, listClients } from './factories/clients';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  ID,
  NON_DIGIT_IDS,
  nextSecond,
  timeWindow,
  TIMESTAMP,
  UNKNOWN_IDS,
} from './setup/expectations';

const DETAIL_KEYS = [
  'address',
  'buyer_reference',
  'country',
  'created_at',
  'einvoice_address',
  'einvoice_format',
  'email',
  'id',
  'language',
  'names',
  'phone',
  'tax_id',
  'updated_at',
];
const LIST_KEYS = DETAIL_KEYS.filter((key) => key !== 'updated_at');

describe('Clients', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const read = async (id: string): Promise<ClientOutput> => {
    const response = await test.http.get(`/v1/client/${id}`).expect(200);
    return (response.body as { data: ClientOutput[] }).data[0];
  };

  describe('POST /v1/client/add', () => {
    it('creates a client and answers it as an array of one, with both timestamps', async () => {
      const window = timeWindow();
      const response = await test.http.post('/v1/client/add').send({
        names: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+44 20 7946 0958',
        address: '12 St James Square, London',
        tax_id: 'GB123456789',
        country: 'GB',
        language: 'en',
        einvoice_address: '9932:GB123456789',
        einvoice_format: 'peppol',
        buyer_reference: 'PO-BOX 7',
      });

      const body = expectSuccess(response);
      expect(Object.keys(body).sort()).toEqual(['data', 'status']);
      const [client] = body.data as ClientOutput[];
      expect(body.data).toHaveLength(1);
      expect(Object.keys(client).sort()).toEqual(DETAIL_KEYS);
      expect(client).toEqual({
        id: expect.stringMatching(ID),
        names: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+44 20 7946 0958',
        address: '12 St James Square, London',
        tax_id: 'GB123456789',
        country: 'GB',
        language: 'en',
        einvoice_address: '9932:GB123456789',
        einvoice_format: 'peppol',
        buyer_reference: 'PO-BOX 7',
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: client.created_at,
      });
      expect(window.contains(client.created_at)).toBe(true);
    });

    it('outputs omitted optional fields as empty strings, never null', async () => {
      const response = await test.http.post('/v1/client/add').send({ names: 'Only A Name' });

      const [client] = expectSuccess(response).data as ClientOutput[];
      expect(client).toMatchObject({
        names: 'Only A Name',
        email: '',
        phone: '',
        address: '',
        tax_id: '',
        country: '',
        language: '',
        einvoice_address: '',
        einvoice_format: '',
        buyer_reference: '',
      });
    });

    it('treats null optional fields as not given', async () => {
      const response = await test.http.post('/v1/client/add').send({
        names: 'Nulls',
        email: null,
        phone: null,
        address: null,
        tax_id: null,
        country: null,
        language: null,
        einvoice_address: null,
        einvoice_format: null,
        buyer_reference: null,
      });

      const [client] = expectSuccess(response).data as ClientOutput[];
      expect(client).toMatchObject({
        names: 'Nulls',
        email: '',
        phone: '',
        address: '',
        tax_id: '',
        country: '',
        language: '',
        einvoice_address: '',
        einvoice_format: '',
        buyer_reference: '',
      });
    });

    it('trims surrounding white space from every free-text field', async () => {
      const response = await test.http.post('/v1/client/add').send({
        names: '  Grace Hopper \t',
        email: ' grace@example.com ',
        phone: ' 555-0100 ',
        address: '\n1 Navy Way  ',
        tax_id: ' US 12-3456789\t',
      });

      const [client] = expectSuccess(response).data as ClientOutput[];
      expect(client).toMatchObject({
        names: 'Grace Hopper',
        email: 'grace@example.com',
        phone: '555-0100',
        address: '1 Navy Way',
        tax_id: 'US 12-3456789',
      });
    });

    it.each([
      ['de', 'DE', 'DE', 'de'],
      ['DE', 'de', 'DE', 'de'],
      ['fR', 'Fr', 'FR', 'fr'],
      ['jp', 'JA', 'JP', 'ja'],
    ])(
      'takes the country %j and the language %j in any case, as %s and %s',
      async (country, language, storedCountry, storedLanguage) => {
        const created = await addClient(test.http, { country, language });

        expect(created).toMatchObject({ country: storedCountry, language: storedLanguage });
        expect(await read(created.id)).toEqual(created);
      },
    );

    it.each([
      ['0088:5790000435975', '0088:5790000435975'],
      ['9930:de123456789', '9930:de123456789'],
      ['em:Billing@Example.com', 'EM:Billing@Example.com'],
      ['0204:04011000-1234512345-06', '0204:04011000-1234512345-06'],
      [`EM:${'a'.repeat(254)}`, `EM:${'a'.repeat(254)}`],
    ])(
      'takes the e-invoice address %j as %j: the scheme as listed, the identifier as written',
      async (einvoice_address, stored) => {
        const created = await addClient(test.http, { einvoice_address });

        expect(created.einvoice_address).toBe(stored);
        expect(await read(created.id)).toEqual(created);
      },
    );

    it.each(['ubl', 'cii', 'peppol', 'xrechnung-ubl', 'xrechnung-cii', 'facturx', 'XRechnung-CII'])(
      'takes the e-invoice format %j in any case',
      async (einvoice_format) => {
        const created = await addClient(test.http, { einvoice_format });

        expect(created.einvoice_format).toBe(einvoice_format.toLowerCase());
        expect(await read(created.id)).toEqual(created);
      },
    );

    it('trims the buyer reference and takes 255 characters', async () => {
      const buyer_reference = 'L'.repeat(255);

      const created = await addClient(test.http, { buyer_reference: ` ${buyer_reference}\t` });

      expect(await read(created.id)).toMatchObject({ buyer_reference });
    });

    it('accepts a tax id of 32 characters after trimming, and empty codes', async () => {
      const tax_id = 'T'.repeat(32);

      const created = await addClient(test.http, {
        tax_id: ` ${tax_id} `,
        country: '',
        language: '',
      });

      expect(await read(created.id)).toMatchObject({ tax_id, country: '', language: '' });
    });

    it('accepts an explicitly empty e-mail', async () => {
      const response = await test.http.post('/v1/client/add').send({ names: 'No Mail', email: '' });

      const [client] = expectSuccess(response).data as ClientOutput[];
      expect(client.email).toBe('');
    });

    it('gives every client its own, increasing id', async () => {
      const first = await addClient(test.http);
      const second = await addClient(test.http);

      expect(first.id).toMatch(ID);
      expect(second.id).toMatch(ID);
      expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    });

    it('keeps text exactly, multi-byte characters included', async () => {
      const names = 'Zoë Ångström-Łukasiewicz 山田 😀';
      const address = 'Straße 5\nApt "7" \'B\' <c> & d';

      const created = await addClient(test.http, { names, address });

      expect(created).toMatchObject({ names, address });
      expect(await read(created.id)).toMatchObject({ names, address });
    });

    it('accepts names of exactly 255 characters, counted after trimming', async () => {
      const names = 'n'.repeat(255);

      const created = await addClient(test.http, { names: `  ${names}  ` });
      const emoji = await addClient(test.http, { names: '😀'.repeat(255) });

      expect((await read(created.id)).names).toBe(names);
      expect((await read(emoji.id)).names).toBe('😀'.repeat(255));
    });

    it('accepts a phone of 32 characters and an address of 1000', async () => {
      const phone = '1'.repeat(32);
      const address = 'a'.repeat(1000);

      const created = await addClient(test.http, { phone, address });

      expect(await read(created.id)).toMatchObject({ phone, address });
    });

    it.each([
      ['missing', {}],
      ['null', { names: null }],
      ['empty', { names: '' }],
      ['only white space', { names: '   \t ' }],
      ['256 characters', { names: 'n'.repeat(256) }],
      ['256 characters of emoji', { names: '😀'.repeat(256) }],
      ['a number', { names: 12345 }],
      ['an array', { names: ['a', 'b'] }],
      ['an object', { names: { first: 'Ada' } }],
      ['a boolean', { names: true }],
    ])('refuses names that are %s with 422', async (_, input) => {
      const response = await test.http
        .post('/v1/client/add')
        .send({ email: 'x@example.com', ...input });

      expectValidationError(response, ['names']);
    });

    it.each([
      'not-an-email',
      'a@',
      '@example.com',
      'a b@example.com',
      'ada@@example.com',
      'ada@example',
    ])('refuses the e-mail %j with 422', async (email) => {
      const response = await test.http.post('/v1/client/add').send({ names: 'Bad Mail', email });

      expectValidationError(response, ['email']);
      expect(response.body.errors.email[0]).toEqual(expect.any(String));
    });

    it.each([
      ['an e-mail that is not text', { email: 42 }, 'email'],
      ['a phone of 33 characters', { phone: '1'.repeat(33) }, 'phone'],
      ['a phone that is not text', { phone: ['1'] }, 'phone'],
      ['an address of 1001 characters', { address: 'a'.repeat(1001) }, 'address'],
      ['an address that is not text', { address: { street: 'x' } }, 'address'],
      ['a tax id of 33 characters', { tax_id: 'T'.repeat(33) }, 'tax_id'],
      ['a tax id that is not text', { tax_id: 123 }, 'tax_id'],
      ['an unknown country', { country: 'XX' }, 'country'],
      ['a country ISO never assigned', { country: 'EU' }, 'country'],
      ['a three-letter country', { country: 'DEU' }, 'country'],
      ['a country with white space', { country: ' DE' }, 'country'],
      ['a country that is a number', { country: 49 }, 'country'],
      ['a country that is not text', { country: ['DE'] }, 'country'],
      ['an unknown language', { language: 'xx' }, 'language'],
      ['a three-letter language', { language: 'deu' }, 'language'],
      ['a language with a region', { language: 'en-GB' }, 'language'],
      ['a withdrawn language code', { language: 'iw' }, 'language'],
      ['a language with white space', { language: 'en ' }, 'language'],
      ['a language that is not text', { language: { code: 'en' } }, 'language'],
      [
        'an e-invoice address without a scheme',
        { einvoice_address: '5790000435975' },
        'einvoice_address',
      ],
      [
        'an e-invoice address of an unlisted scheme',
        { einvoice_address: '0089:579000' },
        'einvoice_address',
      ],
      [
        'an e-invoice address without an identifier',
        { einvoice_address: '0088:' },
        'einvoice_address',
      ],
      [
        'an e-invoice address with a space',
        { einvoice_address: '0088:579 000' },
        'einvoice_address',
      ],
      [
        'an e-invoice address with white space around',
        { einvoice_address: ' 0088:579000' },
        'einvoice_address',
      ],
      [
        'an e-invoice address with a control character',
        { einvoice_address: '0088:579\u0000' },
        'einvoice_address',
      ],
      [
        'an e-invoice address beyond ASCII',
        { einvoice_address: 'EM:zoë@example.com' },
        'einvoice_address',
      ],
      [
        'an e-invoice identifier of 255 characters',
        { einvoice_address: `EM:${'a'.repeat(255)}` },
        'einvoice_address',
      ],
      ['an e-invoice address that is not text', { einvoice_address: 88 }, 'einvoice_address'],
      ['an unknown e-invoice format', { einvoice_format: 'pdf' }, 'einvoice_format'],
      ['an e-invoice format that is not text', { einvoice_format: ['ubl'] }, 'einvoice_format'],
      [
        'a buyer reference of 256 characters',
        { buyer_reference: 'L'.repeat(256) },
        'buyer_reference',
      ],
      ['a buyer reference that is not text', { buyer_reference: 991 }, 'buyer_reference'],
    ])('refuses %s with 422', async (_, input, field) => {
      const response = await test.http.post('/v1/client/add').send({ names: 'Someone', ...input });

      expectValidationError(response, [field]);
    });

    it('names every invalid field at once', async () => {
      const response = await test.http.post('/v1/client/add').send({
        names: '',
        email: 'nope',
        phone: '1'.repeat(33),
        address: 'a'.repeat(1001),
        tax_id: 'T'.repeat(33),
        country: 'ZZ',
        language: 'zz',
      });

      expectValidationError(response, [
        'names',
        'email',
        'phone',
        'address',
        'tax_id',
        'country',
        'language',
      ]);
      expect(response.body.message).toBe('The given data was invalid');
    });

    it('stores nothing when it refuses the input', async () => {
      const before = await listClients(test.http);

      const response = await test.http
        .post('/v1/client/add')
        .send({ names: 'Valid', email: 'invalid' });
      const badCountry = await test.http
        .post('/v1/client/add')
        .send({ names: 'Valid', tax_id: 'DE1', country: 'Germany', language: 'de' });

      expectValidationError(response, ['email']);
      expectValidationError(badCountry, ['country']);
      expect(await listClients(test.http)).toEqual(before);
    });
  });

  describe('GET /v1/client/all', () => {
    it('lists every live client oldest first, without updated_at', async () => {
      const first = await addClient(test.http, {
        names: 'List One',
        phone: '1',
        tax_id: 'CHE-123.456.789',
        country: 'ch',
        language: 'DE',
      });
      const second = await addClient(test.http, { names: 'List Two', address: 'Somewhere' });

      const response = await test.http.get('/v1/client/all');

      const body = expectSuccess(response);
      expect(Object.keys(body).sort()).toEqual(['data', 'status']);
      const data = body.data as Array<Record<string, string>>;
      expect(Array.isArray(data)).toBe(true);
      for (const item of data) {
        expect(Object.keys(item).sort()).toEqual(LIST_KEYS);
        expect(item.id).toMatch(ID);
        expect(item.created_at).toMatch(TIMESTAMP);
      }
      const ids = data.map((item) => Number(item.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      const { updated_at: _first, ...firstItem } = first;
      const { updated_at: _second, ...secondItem } = second;
      expect(data.find((item) => item.id === first.id)).toEqual(firstItem);
      expect(data.find((item) => item.id === second.id)).toEqual(secondItem);
      expect(data.slice(-2)).toEqual([firstItem, secondItem]);
    });

    it('answers an empty array when no client is live, and an array of one for one', async () => {
      for (const item of await listClients(test.http)) {
        await test.http.delete(`/v1/client/${item.id}`).expect(200);
      }

      expect(expectSuccess(await test.http.get('/v1/client/all'))).toEqual({
        status: 'success',
        data: [],
      });

      const only = await addClient(test.http, { names: 'The Only One' });
      const { updated_at: _, ...onlyItem } = only;
      expect(expectSuccess(await test.http.get('/v1/client/all'))).toEqual({
        status: 'success',
        data: [onlyItem],
      });
    });
  });

  describe('GET /v1/client/{id}', () => {
    it('answers the client as an array of one, with empty invoices and estimates', async () => {
      const created = await addClient(test.http, {
        names: 'Reader',
        email: 'reader@example.com',
        phone: '123',
        address: 'Road 1',
        tax_id: 'FR40303265045',
        country: 'FR',
        language: 'fr',
      });

      const response = await test.http.get(`/v1/client/${created.id}`);

      const body = expectSuccess(response);
      expect(body).toEqual({ status: 'success', data: [created], invoices: [], estimates: [] });
      const [client] = body.data as ClientOutput[];
      expect(Object.keys(client).sort()).toEqual(DETAIL_KEYS);
    });

    it.each(NON_DIGIT_IDS)('answers 404 for the id %j', async (id) => {
      expectError(await test.http.get(`/v1/client/${id}`), 404);
    });

    it.each(UNKNOWN_IDS)('answers 404 for the unknown id %s', async (id) => {
      expectError(await test.http.get(`/v1/client/${id}`), 404);
    });
  });

  describe('PUT /v1/client/{id}', () => {
    it('replaces the given fields and answers the client as an array of one', async () => {
      const created = await addClient(test.http, {
        names: 'Before',
        email: 'before@example.com',
        phone: '111',
        address: 'Old Street',
        tax_id: 'OLD-1',
        country: 'AT',
        language: 'de',
        einvoice_address: '9914:ATU12345678',
        einvoice_format: 'ubl',
        buyer_reference: 'Old ref',
      });

      const response = await test.http.put(`/v1/client/${created.id}`).send({
        names: ' After ',
        email: 'after@example.com',
        phone: '222',
        address: 'New Street',
        tax_id: ' NEW-2 ',
        country: 'es',
        language: 'ES',
        einvoice_address: '9920:ESB12345678',
        einvoice_format: 'CII',
        buyer_reference: ' New ref ',
      });

      const body = expectSuccess(response);
      expect(Object.keys(body).sort()).toEqual(['data', 'status']);
      expect(body.data).toHaveLength(1);
      const [updated] = body.data as ClientOutput[];
      expect(Object.keys(updated).sort()).toEqual(DETAIL_KEYS);
      expect(updated).toEqual({
        id: created.id,
        names: 'After',
        email: 'after@example.com',
        phone: '222',
        address: 'New Street',
        tax_id: 'NEW-2',
        country: 'ES',
        language: 'es',
        einvoice_address: '9920:ESB12345678',
        einvoice_format: 'cii',
        buyer_reference: 'New ref',
        created_at: created.created_at,
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(await read(created.id)).toEqual(updated);
    });

    it('keeps optional fields that are left out', async () => {
      const created = await addClient(test.http, {
        names: 'Keeper',
        email: 'keeper@example.com',
        phone: '333',
        address: 'Keep Lane',
        tax_id: 'KEEP-3',
        country: 'NL',
        language: 'nl',
        einvoice_address: '0106:12345678',
        einvoice_format: 'peppol',
        buyer_reference: 'Keep ref',
      });

      const response = await test.http
        .put(`/v1/client/${created.id}`)
        .send({ names: 'Keeper Renamed' });

      const [updated] = expectSuccess(response).data as ClientOutput[];
      expect(updated).toMatchObject({
        names: 'Keeper Renamed',
        email: 'keeper@example.com',
        phone: '333',
        address: 'Keep Lane',
        tax_id: 'KEEP-3',
        country: 'NL',
        language: 'nl',
        einvoice_address: '0106:12345678',
        einvoice_format: 'peppol',
        buyer_reference: 'Keep ref',
      });
      expect(await read(created.id)).toEqual(updated);
    });

    it('clears optional fields given as empty strings', async () => {
      const created = await addClient(test.http, {
        names: 'Clearer',
        email: 'clear@example.com',
        phone: '444',
        address: 'Clear Road',
        tax_id: 'CLEAR-4',
        country: 'BE',
        language: 'fr',
        einvoice_address: '0208:0123456789',
        einvoice_format: 'peppol',
        buyer_reference: 'Clear ref',
      });

      const response = await test.http.put(`/v1/client/${created.id}`).send({
        names: 'Clearer',
        email: '',
        phone: '',
        address: '',
        tax_id: '',
        country: '',
        language: '',
        einvoice_address: '',
        einvoice_format: '',
        buyer_reference: '',
      });

      const [updated] = expectSuccess(response).data as ClientOutput[];
      expect(updated).toMatchObject({
        names: 'Clearer',
        email: '',
        phone: '',
        address: '',
        tax_id: '',
        country: '',
        language: '',
        einvoice_address: '',
        einvoice_format: '',
        buyer_reference: '',
      });
      expect(await read(created.id)).toEqual(updated);
    });

    it('moves updated_at forward and leaves created_at alone', async () => {
      const created = await addClient(test.http);
      await nextSecond();

      const window = timeWindow();
      const response = await test.http.put(`/v1/client/${created.id}`).send({ names: 'Later' });

      const [updated] = expectSuccess(response).data as ClientOutput[];
      expect(updated.created_at).toBe(created.created_at);
      expect(updated.updated_at > created.updated_at).toBe(true);
      expect(window.contains(updated.updated_at)).toBe(true);
      expect((await read(created.id)).updated_at).toBe(updated.updated_at);
      const listed = (await listClients(test.http)).find((item) => item.id === created.id);
      const { updated_at: _, ...createdItem } = created;
      expect(listed).toEqual({ ...createdItem, names: 'Later' });
    });

    it('changes no other client', async () => {
      const target = await addClient(test.http);
      const bystander = await addClient(test.http);

      await test.http.put(`/v1/client/${target.id}`).send({ names: 'Only Me' }).expect(200);

      expect(await read(bystander.id)).toEqual(bystander);
    });

    it.each([
      ['no names', { email: 'x@example.com' }, ['names']],
      ['empty names', { names: '  ' }, ['names']],
      ['names of 256 characters', { names: 'n'.repeat(256) }, ['names']],
      ['an invalid e-mail', { names: 'Ok', email: 'invalid' }, ['email']],
      ['a phone of 33 characters', { names: 'Ok', phone: '1'.repeat(33) }, ['phone']],
      ['an address of 1001 characters', { names: 'Ok', address: 'a'.repeat(1001) }, ['address']],
      ['a tax id of 33 characters', { names: 'Ok', tax_id: 'T'.repeat(33) }, ['tax_id']],
      ['an unknown country', { names: 'Ok', country: 'XK' }, ['country']],
      ['an unknown language', { names: 'Ok', language: 'eng' }, ['language']],
      [
        'a valid country beside an unknown language',
        { names: 'Changed', tax_id: 'NEW', country: 'US', language: 'e' },
        ['language'],
      ],
    ])('refuses %s with 422 and changes nothing', async (_, input, fields) => {
      const created = await addClient(test.http, {
        phone: '555',
        address: 'Unchanged',
        tax_id: 'KEPT-1',
        country: 'IT',
        language: 'it',
      });

      const response = await test.http.put(`/v1/client/${created.id}`).send(input);

      expectValidationError(response, fields);
      expect(await read(created.id)).toEqual(created);
    });

    it.each(NON_DIGIT_IDS)('answers 404 for the id %j', async (id) => {
      expectError(await test.http.put(`/v1/client/${id}`).send({ names: 'Nobody' }), 404);
    });

    it.each(UNKNOWN_IDS)('answers 404 for the unknown id %s', async (id) => {
      expectError(await test.http.put(`/v1/client/${id}`).send({ names: 'Nobody' }), 404);
    });
  });

  describe('DELETE /v1/client/{id}', () => {
    it('archives the client: it answers its id, then the client is gone from every read', async () => {
      const doomed = await addClient(test.http, { names: 'Doomed' });
      const survivor = await addClient(test.http, { names: 'Survivor' });

      const response = await test.http.delete(`/v1/client/${doomed.id}`);

      expect(expectSuccess(response)).toEqual({ status: 'success', id: doomed.id });
      expectError(await test.http.get(`/v1/client/${doomed.id}`), 404);
      expectError(await test.http.put(`/v1/client/${doomed.id}`).send({ names: 'Revived' }), 404);
      expectError(await test.http.delete(`/v1/client/${doomed.id}`), 404);
      const listed = (await listClients(test.http)).map((item) => item.id);
      expect(listed).not.toContain(doomed.id);
      expect(listed).toContain(survivor.id);
      expect(await read(survivor.id)).toEqual(survivor);
    });

    it('does not reuse the id of an archived client', async () => {
      const archived = await addClient(test.http);
      await test.http.delete(`/v1/client/${archived.id}`).expect(200);

      const next = await addClient(test.http);

      expect(Number(next.id)).toBeGreaterThan(Number(archived.id));
    });

    it('leaves the list as it was apart from the archived client', async () => {
      const archived = await addClient(test.http);
      const before = await listClients(test.http);

      await test.http.delete(`/v1/client/${archived.id}`).expect(200);

      expect(await listClients(test.http)).toEqual(
        before.filter((item) => item.id !== archived.id),
      );
    });

    it.each(NON_DIGIT_IDS)('answers 404 for the id %j', async (id) => {
      expectError(await test.http.delete(`/v1/client/${id}`), 404);
    });

    it.each(UNKNOWN_IDS)('answers 404 for the unknown id %s', async (id) => {
      expectError(await test.http.delete(`/v1/client/${id}`), 404);
    });
  });
});
