import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

declare const TEST_DIALECT: 'sqlite' | 'mariadb';

/**
 * Points the app's configuration at a database and a mail folder of the calling file's own:
 * a throwaway SQLite file, or a MariaDB database test-database.ts creates from the migrated
 * schema. Called before each e2e file is loaded (test-environment.ts), and by a group
 * (test-group.ts) before each of its members.
 */
export function isolateFile(): void {
  const suffix = randomBytes(6).toString('hex');
  if (TEST_DIALECT === 'sqlite') {
    process.env.DATABASE_URL = `sqlite:${join(tmpdir(), `invoicing-test-${suffix}.sqlite`)}`;
  } else {
    const server = process.env.TEST_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306';
    process.env.DATABASE_URL = `${server}/invoicing_test_${suffix}`;
  }
  // Sent documents become .eml files in a folder of the file's own, never the checkout's data/.
  process.env.MAIL_DIR = join(tmpdir(), `invoicing-test-mail-${suffix}`);
}
