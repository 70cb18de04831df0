import type { Request } from 'express';
import { JsonNumberText } from '../common/json-number-text';
import { requestFingerprint } from './request-fingerprint';

const request = (parts: Partial<Request>): Request =>
  ({
    method: 'POST',
    path: '/v1/invoice/record-payment',
    query: {},
    body: {},
    ...parts,
  }) as Request;

describe('requestFingerprint', () => {
  const payment = { id: '7', amount_paid: '10.00', payment_date: '2026-03-10' };

  it('is the same for the same parameters in any key order', () => {
    const reordered = { payment_date: '2026-03-10', amount_paid: '10.00', id: '7' };
    expect(requestFingerprint(request({ body: reordered }))).toBe(
      requestFingerprint(request({ body: payment })),
    );
  });

  it('tells apart another value, path, method, query or line order', () => {
    const base = requestFingerprint(request({ body: payment }));
    const others = [
      request({ body: { ...payment, amount_paid: '10.01' } }),
      request({ body: payment, path: '/v1/invoice/send' }),
      request({ body: payment, method: 'PUT' }),
      request({ body: payment, query: { id: '8' } }),
      request({ body: { ...payment, extra: null } }),
    ];
    for (const other of others) expect(requestFingerprint(other)).not.toBe(base);
    const lines = (first: string, second: string) =>
      request({ body: { items: [{ description: first }, { description: second }] } });
    expect(requestFingerprint(lines('a', 'b'))).not.toBe(requestFingerprint(lines('b', 'a')));
  });

  it('reads a JSON number by its digits, and tells it from the same digits as text', () => {
    const number = requestFingerprint(request({ body: { rate: 12.5 } }));
    expect(requestFingerprint(request({ body: { rate: new JsonNumberText('12.5') } }))).toBe(
      number,
    );
    expect(requestFingerprint(request({ body: { rate: '12.5' } }))).not.toBe(number);
  });
});
