import type TestAgent from 'supertest/lib/agent';

export interface ClientInput {
  names?: string;
  email?: string;
  phone?: string;
  address?: string;
}

let sequence = 0;

/** Creates a client through the API and answers its id. */
export async function createClient(http: TestAgent, input: ClientInput = {}): Promise<string> {
  sequence += 1;
  const response = await http
    .post('/v1/client/add')
    .send({ names: `Client ${sequence}`, email: `client${sequence}@example.com`, ...input })
    .expect(200);
  return (response.body as { data: Array<{ id: string }> }).data[0].id;
}
