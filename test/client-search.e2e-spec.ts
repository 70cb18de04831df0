import { createClient } from './factories/clients';
import { createTestApp, TestApp } from './setup/create-app';

/** `q` folds case in every script, on SQLite as on MySQL (not only A–Z). */
describe('GET /v1/client/all?q= beyond ASCII', () => {
  let test: TestApp;
  let elodie: string;
  let sisyphus: string;

  beforeAll(async () => {
    test = await createTestApp();
    elodie = await createClient(test.http, { names: 'Élodie Ünal', email: 'eu@example.com' });
    sisyphus = await createClient(test.http, { names: 'ΣΊΣΥΦΟΣ', email: 'sis@example.com' });
    await createClient(test.http, { names: 'Plain Ascii', email: 'plain@example.com' });
  });
  afterAll(() => test.close());

  async function search(q: string): Promise<string[]> {
    const response = await test.http.get('/v1/client/all').query({ q }).expect(200);
    return (response.body as { data: Array<{ id: string }> }).data.map((client) => client.id);
  }

  it.each([
    ['élodie', 'lower case of an upper-case accented letter'],
    ['ÉLODIE', 'upper case'],
    ['ünal', 'a lower-case umlaut'],
    ['ÜNAL', 'an upper-case umlaut'],
  ])('finds Élodie Ünal by %s (%s)', async (q) => {
    expect(await search(q)).toEqual([elodie]);
  });

  it('folds Greek, final sigma included', async () => {
    expect(await search('σίσυφος')).toEqual([sisyphus]);
    expect(await search('Σίσυφ')).toEqual([sisyphus]);
  });

  it('matches nothing for a text no client holds', async () => {
    expect(await search('ölodie')).toEqual([]);
  });
});
