/**
 * `npm test` builds dist/ first (pretest), for the tests that start the service as a process
 * (`node dist/main.js`: shutdown, crash recovery, two instances). This build is SWC's, file by
 * file without type checking, in about a second where `nest build` (tsc) takes 11 s and more:
 * the tests compile src with SWC in any case (jest.config.js), `npm run lint` type-checks it,
 * and `npm run build` (nest build, what the image ships) still builds with tsc. The layout is
 * tsc's: src/x/y.ts becomes dist/x/y.js with its source map; the JSON files src imports are
 * copied beside them; unit specs and declaration files are left out.
 */
const { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');
const { transformFile } = require('@swc/core');
const options = require('./swc-options');

const root = join(__dirname, '..', '..');
const source = join(root, 'src');
const out = join(root, 'dist');

async function build() {
  rmSync(out, { recursive: true, force: true });
  const files = readdirSync(source, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const compiled = files.filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'),
  );
  for (const file of files.filter((name) => name.endsWith('.json'))) {
    const target = join(out, relative(source, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
  await Promise.all(
    compiled.map(async (file) => {
      const target = join(out, relative(source, file)).replace(/\.ts$/, '.js');
      const { code, map } = await transformFile(file, {
        ...options,
        sourceMaps: true,
        swcrc: false,
        configFile: false,
      });
      mkdirSync(dirname(target), { recursive: true });
      const mapName = `${target.slice(dirname(target).length + 1)}.map`;
      writeFileSync(target, `${code}\n//# sourceMappingURL=${mapName}\n`);
      writeFileSync(`${target}.map`, map);
    }),
  );
  return compiled.length;
}

build().then(
  (count) => console.log(`dist/: ${count} files compiled by SWC for the tests`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
