/**
 * Jest transform for the packages that ship ES modules only (ESM_PACKAGES in jest.config.js) while the tests run as
 * CommonJS (Node itself loads it with require() in production). The few `import.meta` uses
 * have CommonJS equivalents; TypeScript turns the import/export syntax into require/exports.
 */
const ts = require('typescript');

module.exports = {
  process(source, path) {
    const commonJsSource = source
      .replace(/^const require = createRequire\(import\.meta\.url\);$/m, '')
      .replace(/import\.meta\.resolve\(/g, 'require.resolve(')
      .replace(/import\.meta\.dirname/g, '__dirname')
      .replace(/import\.meta\.url/g, "require('node:url').pathToFileURL(__filename).href");
    const { outputText } = ts.transpileModule(commonJsSource, {
      fileName: path,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        allowJs: true,
        esModuleInterop: true,
      },
    });
    return { code: outputText };
  },
};
