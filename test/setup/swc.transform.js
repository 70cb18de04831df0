const { createHash } = require('node:crypto');
const swcJest = require('@swc/jest');

/*
 * TypeScript for Jest, compiled by SWC (@swc/jest) with one change: a module's exports stay
 * redefinable, as TypeScript's CommonJS leaves them. SWC exports each name through a getter
 * that cannot be redefined, so `jest.spyOn(module, 'name')` would throw; a few tests spy on a
 * module's function that the app calls (short-codes: generateShortCode; document-fields:
 * renderDocumentPdf). The app's build (nest build, tsc) is not concerned.
 */
const EXPORT_PROPERTY = /(Object\.defineProperty\(target, name, \{\s*enumerable: true,)(\s*get:)/g;
const VERSION = 'redefinable-exports-1';

/** The compiled code with its exports' getters configurable; other code as SWC wrote it. */
function redefinable(result) {
  const code = typeof result === 'string' ? result : result.code;
  const changed = code.replace(EXPORT_PROPERTY, '$1 configurable: true,$2');
  return typeof result === 'string' ? changed : { ...result, code: changed };
}

module.exports = {
  createTransformer(options) {
    const swc = swcJest.createTransformer(options);
    return {
      ...swc,
      process: (source, path, jestOptions) => redefinable(swc.process(source, path, jestOptions)),
      processAsync: async (source, path, jestOptions) =>
        redefinable(await swc.processAsync(source, path, jestOptions)),
      getCacheKey: (source, path, jestOptions) =>
        createHash('sha1')
          .update(swc.getCacheKey(source, path, jestOptions))
          .update(VERSION)
          .digest('hex'),
    };
  },
};
