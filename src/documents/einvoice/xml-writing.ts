import { XMLBuilder } from 'fast-xml-parser';

/*
 * What both syntaxes write XML with: a builder (never string concatenation), and text as XML
 * 1.0 can carry it.
 */

/** An element's content for the builder: `@_` attributes, `#text`, children by name. */
export type XmlNode = Record<string, unknown>;

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
});

/** The document with its XML declaration; absent (undefined) children are left out. */
export function buildXml(rootName: string, root: XmlNode): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    [rootName]: root,
  });
}

/** Text as XML 1.0 can carry it: characters it forbids (controls, lone surrogates) as spaces. */
export function xmlText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/gu, ' ');
}

/** Optional text: undefined (left out) when absent or blank. */
export function optionalText(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : xmlText(value);
}
