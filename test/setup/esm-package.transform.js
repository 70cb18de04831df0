/**
 * Jest transform for the packages that ship ES modules only (ESM_PACKAGES in jest.config.js)
 * while the tests run as CommonJS (Node itself loads them with require() in production). The
 * few `import.meta` uses have CommonJS equivalents; SWC turns the import/export syntax into
 * require/exports, as it compiles the TypeScript (swc.transform.js).
 */
const { transformSync } = require('@swc/core');

module.exports = {
  process(source, path) {
    const commonJsSource = source
      .replace(/^const require = createRequire\(import\.meta\.url\);$/m, '')
      .replace(/import\.meta\.resolve\(/g, 'require.resolve(')
      .replace(/import\.meta\.dirname/g, '__dirname')
      .replace(/import\.meta\.url/g, "require('node:url').pathToFileURL(__filename).href");
    const { code } = transformSync(commonJsSource, {
      filename: path,
      jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
      module: { type: 'commonjs' },
      swcrc: false,
      configFile: false,
    });
    return { code };
  },
};
