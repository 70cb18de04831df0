/**
 * One `npm test` runs three projects: unit specs next to the code, and the e2e specs twice,
 * once against an embedded SQLite file and once against the local MariaDB. Every e2e file gets
 * a throwaway database of its own (test/setup/test-database.ts).
 *
 * The long runs (kill -9 rounds, the service as two processes on one database, app instances
 * competing for one MariaDB database, the generated and swept hostile input in full) are `npm run
 * test:slow` (TEST_SLOW=1), which CI runs after `npm test`; `npm test` sends the generated input
 * at a fifth of its size, a third of the hostile sweep, and runs one instance where the slow run
 * has two.
 */
/** Packages that ship ES modules only, while Jest runs CommonJS (Node requires them itself). */
const ESM_PACKAGES = '@nestjs/terminus|request-filtering-agent|intl-messageformat|@formatjs';

// Compiled file by file, without type checking: `npm run lint` type-checks src, test and bench
// (tsc --noEmit) once, instead of every test worker building the whole program again.
const tsJest = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true } }],
  [`/node_modules/(${ESM_PACKAGES})/.+\\.js$`]: '<rootDir>/test/setup/esm-package.transform.js',
};
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES})/)`];

const SLOW = ['crash-recovery', 'two-instances', 'webhooks-durability'];
/** In both runs, larger in the slow one. */
const SLOW_AS_WELL = ['generated-input', 'hostile-input'];
/** In both runs; in the slow one on MariaDB only, with instances competing for one database. */
const SLOW_ON_MARIADB = ['delivery-workers', 'reminders'];
const slowRun = process.env.TEST_SLOW === '1';
// SQLite serves one process (its write queue is in the process): two processes on one file
// answer 503 (SQLITE_BUSY_SNAPSHOT), so the two-instance workloads are MariaDB's only.
const MARIADB_ONLY = ['two-instances', 'webhooks-durability'];
// Files that touch no database (the service refusing a configuration before it connects) run
// once, in the SQLite project: a second run would prove the same thing again.
const DATABASE_FREE = ['startup'];
const pattern = (name) => `<rootDir>/test/${name}\\.e2e-spec\\.ts$`;

const e2e = (dialect) => ({
  displayName: `e2e-${dialect}`,
  testMatch: slowRun
    ? [...SLOW, ...SLOW_AS_WELL, ...(dialect === 'mariadb' ? SLOW_ON_MARIADB : [])].map(
        (name) => `<rootDir>/test/${name}.e2e-spec.ts`,
      )
    : ['<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(slowRun ? [] : SLOW.map(pattern)),
    ...(dialect === 'sqlite' ? MARIADB_ONLY.map(pattern) : DATABASE_FREE.map(pattern)),
  ],
  transform: tsJest,
  transformIgnorePatterns,
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/setup/test-environment.ts'],
  // MariaDB: the migrations run once per run; each file's database is built from their result.
  ...(dialect === 'mariadb'
    ? {
        globalSetup: '<rootDir>/test/setup/mariadb-schema.ts',
        globalTeardown: '<rootDir>/test/setup/mariadb-schema-teardown.ts',
      }
    : {}),
  globals: { TEST_DIALECT: dialect },
});

const unit = {
  displayName: 'unit',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform: tsJest,
  transformIgnorePatterns,
  testEnvironment: 'node',
};

module.exports = {
  testTimeout: 30000,
  maxWorkers: 2,
  projects: slowRun ? [e2e('sqlite'), e2e('mariadb')] : [unit, e2e('sqlite'), e2e('mariadb')],
};
