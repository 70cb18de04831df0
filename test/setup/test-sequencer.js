const Sequencer = require('@jest/test-sequencer').default;

/**
 * The order the workers take files in: the longest first, so that no worker is left with a
 * long file when the others are done. Jest's own order does that with the durations of the
 * last run when it has them; without them (a clean clone) it goes by file size, which would
 * put the e2e groups (three lines each, most of the run) last. Here the groups go by their
 * last durations if Jest has them all; else the e2e groups in the order jest.config.js lists
 * them (longest first), MariaDB's run of each before SQLite's (it takes longer), then the unit
 * groups, drawing first. Files run alone (named on the command line) go as Jest orders them.
 */
class LongestFirst extends Sequencer {
  sort(tests) {
    const groups = tests.filter((test) => groupOf(test) !== undefined);
    const others = super.sort(tests.filter((test) => groupOf(test) === undefined));
    const timed = groups.every((test) => this.time(test) !== undefined);
    const rank = (test) => {
      const { TEST_GROUPS, UNIT_GROUPS, TEST_DIALECT } = test.context.config.globals;
      const order = Object.keys(TEST_GROUPS ?? UNIT_GROUPS ?? {}).indexOf(groupOf(test));
      return (UNIT_GROUPS ? 1000 : 0) + order * 2 + (TEST_DIALECT === 'mariadb' ? 0 : 1);
    };
    groups.sort(timed ? (a, b) => this.time(b) - this.time(a) : (a, b) => rank(a) - rank(b));
    return [...groups, ...others];
  }
}

/** The group a test file runs (test/groups/<name>.e2e-group.ts, .unit-group.ts), or undefined. */
function groupOf(test) {
  return /\/test\/groups\/([^/]+)\.(e2e|unit)-group\.ts$/.exec(test.path)?.[1];
}

module.exports = LongestFirst;
