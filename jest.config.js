/**
 * One `npm test` runs three projects: unit specs next to the code, and the e2e specs twice,
 * once against an embedded SQLite file and once against the local MariaDB. Every e2e file gets
 * a throwaway database of its own (test/setup/test-database.ts).
 *
 * The long runs (kill -9 rounds, the service as two processes on one database, app instances
 * competing for one MariaDB database, the generated and swept hostile input in full, 400
 * generated invoices against the rules' SQL copies) are `npm run test:slow` (TEST_SLOW=1), which
 * CI runs after `npm test`; `npm test` sends a tenth of the generated input, a third of the
 * hostile sweep, 100 generated invoices, and runs one instance where the slow run has two.
 */
const { availableParallelism } = require('node:os');

/** Packages that ship ES modules only, while Jest runs CommonJS (Node requires them itself). */
const ESM_PACKAGES = '@nestjs/terminus|request-filtering-agent|intl-messageformat|@formatjs';

// Compiled file by file by SWC, without type checking: `npm run lint` type-checks src, test and
// bench (tsc --noEmit) once. Every file is compiled as tsconfig.json compiles it (ES2022 classes,
// decorators with their metadata, CommonJS); a clean clone compiles some 400 files, each worker
// its own, and SWC does it in a fraction of TypeScript's time (docs/measured.md, the test run).
const transform = {
  '^.+\\.ts$': [
    '<rootDir>/test/setup/swc.transform.js',
    { ...require('./test/setup/swc-options'), sourceMaps: 'inline' },
  ],
  [`/node_modules/(${ESM_PACKAGES})/.+\\.js$`]: '<rootDir>/test/setup/esm-package.transform.js',
};
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES})/)`];

const SLOW = ['crash-recovery', 'two-instances', 'webhooks-durability', 'recurring-crash'];
/** In both runs, larger in the slow one. */
const SLOW_AS_WELL = ['generated-input', 'hostile-input', 'rule-copies', 'taxes-property'];
/** In both runs; in the slow one on MariaDB only, with instances competing for one database. */
const SLOW_ON_MARIADB = ['delivery-workers', 'reminders'];
const slowRun = process.env.TEST_SLOW === '1';
// SQLite serves one process (its write queue is in the process): two processes on one file
// answer 503 (SQLITE_BUSY_SNAPSHOT), so the two-instance workloads are MariaDB's only.
const MARIADB_ONLY = [
  'two-instances',
  'webhooks-durability',
  'database-flavour',
  'recurring-crash',
];
// Files that touch no database (the service refusing a configuration before it connects) run
// once, in the SQLite project: a second run would prove the same thing again.
const DATABASE_FREE = ['startup'];
const pattern = (name) => `<rootDir>/test/${name}\\.e2e-spec\\.ts$`;

/**
 * `npm test` runs the e2e files in groups: each group is one Jest file (test/groups/) that runs
 * its members one after another, each as if alone (test/setup/test-group.ts), and loads the
 * app's modules once for all of them instead of once per file (about 2 s a file). The groups
 * are sized to keep the workers busy to the end and listed longest first, the order the workers
 * take them in when Jest has no timings of an earlier run (test/setup/test-sequencer.js); every
 * e2e file belongs to exactly one.
 * Naming e2e files on the command line runs them by themselves, as Jest always does.
 */
const E2E_GROUPS = {
  records: [
    'invoices',
    'invoices-lifecycle',
    'invoices-queries',
    'detail-queries',
    'query-plans',
    'short-codes',
    'estimates',
    'estimates-convert',
    'estimates-queries',
    'estimates-rules',
    'clients',
    'client-search',
    'einvoice-references',
    'expenses',
    'expense-import',
  ],
  ledger: [
    'invoices-payments',
    'invoices-refunds',
    'invoices-void',
    'credit-notes',
    'ledger-property',
    'ledger-concurrency',
    'rule-copies',
    'invoice-status',
    'reports',
    'reports-differential',
    'taxes-property',
  ],
  input: [
    'generated-input',
    'hostile-input',
    'input-strictness',
    'method-not-allowed',
    'openapi',
    'request-pipeline',
    'lists',
    'list-paging',
  ],
  outbound: ['events', 'webhooks', 'delivery'],
  operations: [
    'health',
    'metrics',
    'logging',
    'shutdown',
    'startup',
    'database-flavour',
    'transport',
    'http-hardening',
    'database-faults',
  ],
  workers: ['reminders', 'delivery-workers', 'recurring-invoices'],
  access: ['auth', 'rate-limit', 'idempotency', 'generated-client', 'number-series', 'drafts'],
  documents: [
    'documents-pdf',
    'documents-language',
    'documents-scripts',
    'document-fields',
    'archived-client-documents',
    'taxes',
    'documents-taxes',
    'einvoices',
  ],
};

/** Every e2e file is in one group, and every group has its file: else nothing runs. */
function checkGroups() {
  const { readdirSync } = require('node:fs');
  const files = readdirSync(`${__dirname}/test`)
    .filter((name) => name.endsWith('.e2e-spec.ts'))
    .map((name) => name.replace(/\.e2e-spec\.ts$/, ''));
  const grouped = Object.values(E2E_GROUPS).flat();
  const twice = grouped.filter((name, index) => grouped.indexOf(name) !== index);
  const ungrouped = files.filter((name) => !grouped.includes(name) && !SLOW.includes(name));
  const missing = grouped.filter((name) => !files.includes(name));
  const groupFiles = readdirSync(`${__dirname}/test/groups`);
  const noFile = [
    ...Object.keys(E2E_GROUPS).map((group) => `${group}.e2e-group.ts`),
    ...Object.keys(plannedUnitGroups()).map((group) => `${group}.unit-group.ts`),
  ].filter((file) => !groupFiles.includes(file));
  const problems = [
    ...twice.map((name) => `${name} is in two groups`),
    ...ungrouped.map((name) => `test/${name}.e2e-spec.ts is in no group of E2E_GROUPS`),
    ...missing.map((name) => `E2E_GROUPS names ${name}, which has no test/${name}.e2e-spec.ts`),
    ...noFile.map((file) => `test/groups/${file} is missing`),
  ];
  if (problems.length > 0) throw new Error(`jest.config.js: ${problems.join('; ')}`);
}

/** Whether the command line names e2e files: then they run by themselves, not in groups. */
const namesFiles = process.argv.some((argument) => /\.(e2e-)?spec(\.ts)?$/.test(argument));
const grouped = !slowRun && !namesFiles;
if (grouped) checkGroups();

/** The members a group runs in this project: the same choice as for files run alone. */
function plannedGroups(dialect) {
  const skipped = dialect === 'sqlite' ? MARIADB_ONLY : DATABASE_FREE;
  return Object.fromEntries(
    Object.entries(E2E_GROUPS).map(([group, members]) => [
      group,
      members.filter((name) => !skipped.includes(name) && !SLOW.includes(name)),
    ]),
  );
}

const e2e = (dialect) => ({
  displayName: `e2e-${dialect}`,
  testMatch: grouped
    ? ['<rootDir>/test/groups/*.e2e-group.ts']
    : slowRun
      ? [...SLOW, ...SLOW_AS_WELL, ...(dialect === 'mariadb' ? SLOW_ON_MARIADB : [])].map(
          (name) => `<rootDir>/test/${name}.e2e-spec.ts`,
        )
      : ['<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(slowRun ? [] : SLOW.map(pattern)),
    ...(dialect === 'sqlite' ? MARIADB_ONLY.map(pattern) : DATABASE_FREE.map(pattern)),
  ],
  transform,
  transformIgnorePatterns,
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/setup/test-environment.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/file-checks.ts'],
  // MariaDB: the migrations run once per run; each file's database is built from their result.
  ...(dialect === 'mariadb'
    ? {
        globalSetup: '<rootDir>/test/setup/mariadb-schema.ts',
        globalTeardown: '<rootDir>/test/setup/mariadb-schema-teardown.ts',
      }
    : {}),
  globals: { TEST_DIALECT: dialect, TEST_GROUPS: grouped ? plannedGroups(dialect) : {} },
});

/**
 * The unit specs (next to the code) run in two groups as well (test/setup/unit-group.ts): the
 * PDF renderers' specs, which draw, and the rest, which each load little and are done in
 * milliseconds.
 */
function plannedUnitGroups() {
  const { readdirSync } = require('node:fs');
  const files = readdirSync(`${__dirname}/src`, { recursive: true })
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => `src/${file}`)
    .sort();
  const drawing = (file) => /\/pdf\//.test(file);
  return {
    'unit-drawing': files.filter(drawing),
    'unit-rules': files.filter((file) => !drawing(file)),
  };
}

const unit = {
  displayName: 'unit',
  testMatch: grouped ? ['<rootDir>/test/groups/*.unit-group.ts'] : ['<rootDir>/src/**/*.spec.ts'],
  transform,
  transformIgnorePatterns,
  testEnvironment: 'node',
  globals: { UNIT_GROUPS: grouped ? plannedUnitGroups() : {} },
};

module.exports = {
  testTimeout: 30000,
  // One worker more than the cores: an e2e file waits much of its time (a commit's fsync, a
  // round trip to MariaDB, an SMTP or webhook receiver, a scan interval), and a third worker
  // keeps two cores busy through those waits (docs/measured.md, the test run).
  maxWorkers: availableParallelism() + 1,
  testSequencer: '<rootDir>/test/setup/test-sequencer.js',
  projects: slowRun ? [e2e('sqlite'), e2e('mariadb')] : [unit, e2e('sqlite'), e2e('mariadb')],
};
