/**
 * One `npm test` runs three projects: unit specs next to the code, and the e2e specs twice,
 * once against an embedded SQLite file and once against the local MariaDB. Every e2e file gets
 * a throwaway database of its own (test/setup/test-database.ts).
 */
/** Packages that ship ES modules only, while Jest runs CommonJS (Node requires them itself). */
const ESM_PACKAGES = '@nestjs/terminus|request-filtering-agent|intl-messageformat|@formatjs';

const tsJest = {
  '^.+\\.ts$': 'ts-jest',
  [`/node_modules/(${ESM_PACKAGES})/.+\\.js$`]: '<rootDir>/test/setup/esm-package.transform.js',
};
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES})/)`];

const e2e = (dialect) => ({
  displayName: `e2e-${dialect}`,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  // SQLite serves one process (its write queue is in the process): two processes on one file
  // answer 503 (SQLITE_BUSY_SNAPSHOT), so the two-instance workload is MariaDB's only.
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(dialect === 'sqlite'
      ? [
          '<rootDir>/test/two-instances\\.e2e-spec\\.ts$',
          '<rootDir>/test/webhooks-durability\\.e2e-spec\\.ts$',
        ]
      : []),
  ],
  transform: tsJest,
  transformIgnorePatterns,
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/setup/test-environment.ts'],
  globals: { TEST_DIALECT: dialect },
});

module.exports = {
  testTimeout: 30000,
  maxWorkers: 2,
  projects: [
    {
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform: tsJest,
      transformIgnorePatterns,
      testEnvironment: 'node',
    },
    e2e('sqlite'),
    e2e('mariadb'),
  ],
};
