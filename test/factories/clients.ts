import type TestAgent from 'supertest/lib/agent';

export interface ClientInput {
  names?: string;
  email?: string;
  phone?: string;
  address?: string;
  tax_id?: string;
  country?: string;
  language?: string;
  einvoice_address?: string;
  einvoice_format?: string;
  buyer_reference?: string;
}

/** A client as read, added or updated (the list output has no updated_at). */
export interface ClientOutput {
  id: string;
  names: string;
  email: string;
  phone: string;
  address: string;
  tax_id: string;
  country: string;
  language: string;
  einvoice_address: string;
  einvoice_format: string;
  buyer_reference: string;
  created_at: string;
  updated_at: string;
}

let sequence = 0;

/** Input for a new client: unique names and e-mail unless given. */
export function clientInput(input: ClientInput = {}): ClientInput {
  sequence += 1;
  return { names: `Client ${sequence}`, email: `client${sequence}@example.com`, ...input };
}

/** Creates a client through the API and answers its output. */
export async function addClient(http: TestAgent, input: ClientInput = {}): Promise<ClientOutput> {
  const response = await http.post('/v1/client/add').send(clientInput(input)).expect(200);
  return (response.body as { data: ClientOutput[] }).data[0];
}

/** Creates a client through the API and answers its id. */
export async function createClient(http: TestAgent, input: ClientInput = {}): Promise<string> {
  return (await addClient(http, input)).id;
}

/** The list output, as it stands. */
export async function listClients(
  http: TestAgent,
): Promise<Array<Omit<ClientOutput, 'updated_at'>>> {
  const response = await http.get('/v1/client/all').expect(200);
  return (response.body as { data: Array<Omit<ClientOutput, 'updated_at'>> }).data;
}
