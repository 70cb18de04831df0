import { basename } from 'node:path';
import { isolateFile } from './file-isolation';
import { checkProcessAnswers } from './process-answers';

/*
 * `npm test` runs the e2e files in groups (jest.config.js, E2E_GROUPS): a group is one Jest
 * file that declares several e2e files, one after another, each inside a `describe` of its
 * name. Jest gives every file a module registry of its own, and filling one (the app, Nest,
 * TypeORM, the PDF kernel: about 2,400 modules) took about 2 s a file, more than most files'
 * tests; a group fills it once for all its members.
 *
 * Each member still runs as if alone: its own database and mail folder (isolateFile), the
 * environment as the group found it, its hooks scoped to its `describe`, and the checks every
 * app makes when it closes (answers against the OpenAPI document, logs without personal data)
 * and those of its answers from services run as processes when it ends.
 * A file named on the command line runs by itself, as before.
 */

/** The members of each group, as jest.config.js planned them for this project and run. */
declare const TEST_GROUPS: Record<string, string[]>;

export function runGroup(groupFile: string): void {
  const group = basename(groupFile).replace(/\.e2e-group\.ts$/, '');
  const members = TEST_GROUPS[group];
  if (!members) throw new Error(`jest.config.js plans no group named ${group}`);
  const environment = { ...process.env };
  for (const member of members) {
    describe(member, () => {
      // Declared first, so it runs before the member's own hooks: the member finds the
      // environment as the group did, pointing at a database and a mail folder of its own.
      let own: NodeJS.ProcessEnv = {};
      beforeAll(() => {
        restore(environment);
        Object.assign(process.env, own);
      });
      restore(environment);
      isolateFile();
      own = { ...process.env };
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(`../${member}.e2e-spec`);
      // After the member's own hooks (Jest runs a block's afterAll in the order declared): the
      // answers it read from a service run as a process, checked as a file run alone has them.
      afterAll(checkProcessAnswers);
    });
  }
  afterAll(() => restore(environment));
}

function restore(environment: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) {
    if (!(name in environment)) delete process.env[name];
  }
  Object.assign(process.env, environment);
}
