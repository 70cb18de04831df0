import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isUtf8 } from 'node:buffer';

/**
 * XML from outside (a received e-invoice) read as hostile: no DTD of any kind (so no external
 * entity and no entity expansion can exist), bounded in size and in nesting, UTF-8 only, and
 * checked well-formed before it is parsed. Nothing here reads a file or the network.
 */

/** The largest XML document read: an EN 16931 invoice of a thousand lines is well under 2 MB. */
export const MAX_XML_BYTES = 5 * 1024 * 1024;
/** Elements inside each other: UBL and CII nest about ten deep. */
export const MAX_XML_DEPTH = 64;

/** Why the bytes are not XML this service reads; the message names the reason. */
export class XmlRefused extends Error {}

/** A parsed element: text, or an object of children (arrays when repeated) and `@attributes`. */
export type XmlNode = string | { [name: string]: XmlNode | XmlNode[] | undefined };

export interface UntrustedXml {
  /** The root element's local name (`Invoice`, `CrossIndustryInvoice`). */
  rootName: string;
  /** The namespace URI of the root element, '' when none. */
  rootNamespace: string;
  root: XmlNode;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const DECLARED_ENCODING = /^<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']/;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // Every value stays the text it was: amounts are read as exact decimals, never as doubles.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // The five predefined entities and character references only: no DTD is let through.
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** Parses `bytes` as untrusted XML, or throws XmlRefused naming the reason. */
export function parseUntrustedXml(bytes: Buffer): UntrustedXml {
  if (bytes.length > MAX_XML_BYTES) {
    throw new XmlRefused(`The XML is larger than ${MAX_XML_BYTES} bytes`);
  }
  const body = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  if (!isUtf8(body)) throw new XmlRefused('The XML is not UTF-8 text');
  const text = body.toString('utf8');
  const declared = DECLARED_ENCODING.exec(text)?.[1];
  if (declared !== undefined && !/^utf-?8$/i.test(declared)) {
    throw new XmlRefused(`The XML declares the encoding ${declared}; only UTF-8 is read`);
  }
  // Refused wherever it stands: a DTD is what external entities and entity bombs need, and no
  // e-invoice syntax has one.
  if (/<!DOCTYPE/i.test(text)) throw new XmlRefused('The XML declares a DOCTYPE');
  if (/<!ENTITY/i.test(text)) throw new XmlRefused('The XML declares an ENTITY');
  const root = scanStructure(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line } = valid.err;
    throw new XmlRefused(`The XML is not well-formed: ${msg} (line ${line})`);
  }
  const parsed = parser.parse(text) as Record<string, XmlNode>;
  const rootName = localName(root.name);
  return {
    rootName,
    rootNamespace: root.namespace,
    root: parsed[rootName] ?? '',
  };
}

/** The name without its prefix. */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/**
 * One pass over the markup, without recursion: the nesting stays within MAX_XML_DEPTH (the
 * parser's later steps recurse), and the root element's name and namespace are read.
 */
function scanStructure(text: string): { name: string; namespace: string } {
  let depth = 0;
  let root: { name: string; namespace: string } | null = null;
  let index = text.indexOf('<');
  while (index !== -1) {
    let end: number;
    if (text.startsWith('<!--', index)) {
      end = text.indexOf('-->', index + 4) + 2;
    } else if (text.startsWith('<![CDATA[', index)) {
      end = text.indexOf(']]>', index + 9) + 2;
    } else if (text.startsWith('<?', index)) {
      end = text.indexOf('?>', index + 2) + 1;
    } else {
      end = tagEnd(text, index);
      if (end === -1) break;
      if (text[index + 1] === '/') {
        depth -= 1;
      } else if (text[end - 1] !== '/') {
        depth += 1;
        if (depth > MAX_XML_DEPTH) {
          throw new XmlRefused(`The XML nests elements deeper than ${MAX_XML_DEPTH} levels`);
        }
      }
      if (root === null && text[index + 1] !== '/') root = rootOf(text.slice(index, end + 1));
    }
    // An unclosed comment, section or tag: the validator names it.
    if (end < index) break;
    index = text.indexOf('<', end + 1);
  }
  if (root === null) throw new XmlRefused('The body holds no XML element');
  return root;
}

/** The index of the `>` closing the tag that opens at `start`, past quoted attribute values. */
function tagEnd(text: string, start: number): number {
  let quote: string | null = null;
  for (let index = start + 1; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '>') {
      return index;
    }
  }
  return -1;
}

function rootOf(tag: string): { name: string; namespace: string } {
  const name = /^<([^\s/>]+)/.exec(tag)?.[1] ?? '';
  const prefix = name.includes(':') ? name.slice(0, name.indexOf(':')) : '';
  const attribute = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  const escaped = attribute.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const namespace = new RegExp(`\\s${escaped}\\s*=\\s*(["'])(.*?)\\1`).exec(tag)?.[2] ?? '';
  return { name, namespace };
}
