/**
 * How SWC compiles the TypeScript for the tests, as tsconfig.json compiles it: ES2022 classes,
 * decorators with their metadata, CommonJS. Jest's transform (jest.config.js) and the build
 * `npm test` starts with (build-for-tests.js) use the same options.
 */
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: {
      legacyDecorator: true,
      decoratorMetadata: true,
      useDefineForClassFields: true,
    },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};
