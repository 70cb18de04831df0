import { runUntilExit } from './setup/service-process';
import { createTestDatabase, dropTestDatabase } from './setup/test-database';

/*
 * A MariaDB server named mysql:// would start, then answer 500 to every add (TypeORM writes
 * MySQL 8's `FOR SHARE` for it): the built service (`npx nest build` first) stops at start-up
 * instead, saying to use mariadb://. Run on MariaDB only: the one server to name wrongly.
 */
describe('Start-up against MariaDB named mysql://', () => {
  beforeAll(createTestDatabase);
  afterAll(dropTestDatabase);

  it('stops with a message saying to use mariadb://', async () => {
    const url = process.env.DATABASE_URL ?? '';
    expect(url).toMatch(/^mariadb:\/\//);
    const { code, output } = await runUntilExit(
      { API_KEYS: 'k'.repeat(40), DATABASE_URL: url.replace(/^mariadb:/, 'mysql:') },
      20_000,
    );

    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toContain('DATABASE_URL starts with mysql:// but the server is MariaDB');
    expect(output).toContain('use mariadb://');
    expect(output).not.toContain('Listening on');
  }, 30_000);
});
