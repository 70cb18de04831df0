/*
 * node-zugferd's code lists are reached through its package exports, which TypeScript's
 * CommonJS resolution (node10) does not read: what this project uses of them, typed here.
 */
declare module 'node-zugferd/codelist/eas' {
  /** The Electronic Address Scheme code list (CEF EAS) as the package publishes it. */
  export const EAS: ReadonlyArray<{ key: string; name: string; value: string }>;
}
