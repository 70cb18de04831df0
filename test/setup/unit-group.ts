import { basename, join } from 'node:path';

/*
 * `npm test` runs the unit specs (src/**\/*.spec.ts) in groups, as it does the e2e files
 * (test-group.ts): one Jest file declares several specs, each inside a `describe` of its path,
 * and loads the modules they share once. A unit spec touches no database and no environment;
 * its hooks and mocks are scoped to its `describe`. A spec named on the command line runs by
 * itself.
 */

/** The specs of each unit group, as jest.config.js planned them (paths from the root). */
declare const UNIT_GROUPS: Record<string, string[]>;

export function runUnitGroup(groupFile: string): void {
  const group = basename(groupFile).replace(/\.unit-group\.ts$/, '');
  const specs = UNIT_GROUPS[group];
  if (!specs || specs.length === 0) throw new Error(`jest.config.js plans no unit group ${group}`);
  for (const spec of specs) {
    describe(spec, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(join(__dirname, '..', '..', spec));
    });
  }
}
