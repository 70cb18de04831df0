import 'reflect-metadata';
import { validateEnvironment } from './environment';

describe('validateEnvironment', () => {
  it('accepts an empty environment: every variable has a default', () => {
    expect(() => validateEnvironment({})).not.toThrow();
  });

  it('reads PORT as a number', () => {
    expect(validateEnvironment({ PORT: '8080' }).PORT).toBe(8080);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://localhost/db'],
    ['DATABASE_URL', 'mysql://localhost'],
    ['DEFAULT_CURRENCY', 'ABC'],
    ['BODY_LIMIT', 'lots'],
    ['NODE_ENV', 'staging'],
    ['DATABASE_LOGGING', 'yes please'],
  ])('stops start-up on a bad %s (%s), naming it', (variable, value) => {
    expect(() => validateEnvironment({ [variable]: value })).toThrow(variable);
  });

  it.each([
    'mysql://user:pass@db:3306/invoicing',
    'mariadb://root@127.0.0.1:3306/invoicing',
    'sqlite:data/invoicing.sqlite',
  ])('accepts DATABASE_URL=%s', (url) => {
    expect(validateEnvironment({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it('names every bad variable at once', () => {
    expect(() => validateEnvironment({ PORT: 'x', DEFAULT_CURRENCY: 'ZZZ' })).toThrow(
      /PORT.*DEFAULT_CURRENCY/,
    );
  });
});
