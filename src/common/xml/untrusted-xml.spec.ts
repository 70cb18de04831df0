import { MAX_XML_BYTES, MAX_XML_DEPTH, parseUntrustedXml, XmlRefused } from './untrusted-xml';

const read = (text: string | Buffer) =>
  parseUntrustedXml(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);

const refusal = (text: string | Buffer): string => {
  try {
    read(text);
  } catch (error) {
    if (error instanceof XmlRefused) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('parseUntrustedXml', () => {
  it('reads the root, its namespace, text as written and attributes', () => {
    const xml = read(
      '\ufeff<?xml version="1.0" encoding="utf-8"?><p:Root xmlns:p="urn:x" a="1"><p:Amount currencyID="EUR">0010.50</p:Amount><p:Name>A &amp; B</p:Name></p:Root>',
    );
    expect(xml.rootName).toBe('Root');
    expect(xml.rootNamespace).toBe('urn:x');
    expect(xml.root).toMatchObject({
      Amount: { '#text': '0010.50', '@currencyID': 'EUR' },
      Name: 'A & B',
    });
  });

  it.each([
    ['<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>', /DOCTYPE/],
    ['<!doctype r><r/>', /DOCTYPE/],
    ['<r><!ENTITY x "y"></r>', /ENTITY/],
    ['<?xml version="1.0" encoding="ISO-8859-1"?><r/>', /encoding ISO-8859-1/],
    ['<r><a></r>', /not well-formed/],
    ['no markup', /no XML element/],
    [`${'<a>'.repeat(MAX_XML_DEPTH + 1)}${'</a>'.repeat(MAX_XML_DEPTH + 1)}`, /deeper than 64/],
  ])('refuses %s', (text, reason) => {
    expect(refusal(text)).toMatch(reason);
  });

  it('counts depth past comments, CDATA and quoted ">" without recursion', () => {
    const nested = `${'<a x=">">'.repeat(MAX_XML_DEPTH)}<!-- <b><b><b> --><![CDATA[<c><c>]]>${'</a>'.repeat(MAX_XML_DEPTH)}`;
    expect(read(nested).rootName).toBe('a');
    const deep = `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`;
    expect(refusal(deep)).toMatch(/deeper/);
  });

  it('refuses bytes that are not UTF-8, and more than the limit', () => {
    expect(refusal(Buffer.from([0x3c, 0x72, 0x3e, 0xc3, 0x28, 0x3c, 0x2f, 0x72, 0x3e]))).toMatch(
      /UTF-8/,
    );
    expect(refusal(Buffer.alloc(MAX_XML_BYTES + 1, 0x20))).toMatch(/larger than/);
  });
});
