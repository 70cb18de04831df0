import type { IncomingHttpHeaders } from 'node:http';
import { readPresentedKey } from './api-key-header';

const KEY = 'k3y-0123456789abcdef';

describe('readPresentedKey', () => {
  const read = (headers: IncomingHttpHeaders) => readPresentedKey(headers);

  it('finds no key when neither header is given', () => {
    expect(read({})).toEqual({ status: 'missing' });
    expect(read({ 'x-other': KEY })).toEqual({ status: 'missing' });
  });

  it.each([
    ['Authorization: Bearer', { authorization: `Bearer ${KEY}` }],
    ['the scheme in any case', { authorization: `bEARER ${KEY}` }],
    ['more than one space after the scheme', { authorization: `Bearer   ${KEY}` }],
    ['X-API-Key', { 'x-api-key': KEY }],
    ['X-API-Key with surrounding spaces', { 'x-api-key': `  ${KEY} ` }],
    ['both headers with the same key', { authorization: `Bearer ${KEY}`, 'x-api-key': KEY }],
  ])('reads the key from %s', (_, headers: IncomingHttpHeaders) => {
    expect(read(headers)).toEqual({ status: 'present', key: KEY });
  });

  it('keeps every visible character of the key', () => {
    const key = '!"#$%&\'()*+-./:;<=>?@[\\]^_`{|}~';
    expect(read({ authorization: `Bearer ${key}` })).toEqual({ status: 'present', key });
  });

  it.each([
    ['an empty Bearer', { authorization: 'Bearer' }],
    ['a Bearer of spaces', { authorization: 'Bearer    ' }],
    ['another scheme', { authorization: `Basic ${KEY}` }],
    ['a key without a scheme', { authorization: KEY }],
    ['no space after the scheme', { authorization: `Bearer${KEY}` }],
    ['two tokens', { authorization: `Bearer ${KEY} ${KEY}` }],
    ['an empty Authorization', { authorization: '' }],
    ['an empty X-API-Key', { 'x-api-key': '' }],
    ['a repeated X-API-Key, as Node joins it', { 'x-api-key': `${KEY}, ${KEY}` }],
    ['an X-API-Key given as an array', { 'x-api-key': [KEY, KEY] }],
    ['headers naming different keys', { authorization: `Bearer ${KEY}`, 'x-api-key': `${KEY}x` }],
    ['a malformed header next to a good one', { authorization: 'Bearer', 'x-api-key': KEY }],
  ])('refuses %s as malformed', (_, headers: IncomingHttpHeaders) => {
    expect(read(headers)).toEqual({ status: 'malformed' });
  });
});
