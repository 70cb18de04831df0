import { inlineDisposition, inlineFile } from './inline-file';

describe('inlineDisposition', () => {
  it('quotes a plain ASCII name as it is', () => {
    expect(inlineDisposition('INV-2026-001.pdf')).toBe('inline; filename="INV-2026-001.pdf"');
    expect(inlineDisposition('A & B (v2) #1;x.pdf')).toBe(`inline; filename="A & B (v2) #1;x.pdf"`);
  });

  it('adds the exact name in filename* when it is not plain ASCII', () => {
    expect(inlineDisposition('ΤΙΜ-7.pdf')).toBe(
      `inline; filename="___-7.pdf"; filename*=UTF-8''%CE%A4%CE%99%CE%9C-7.pdf`,
    );
    expect(inlineDisposition('Счёт 1.pdf')).toBe(
      `inline; filename="____ 1.pdf"; filename*=UTF-8''%D0%A1%D1%87%D1%91%D1%82%201.pdf`,
    );
    // One stand-in per character, an astral one included.
    expect(inlineDisposition('🧾.pdf')).toBe(
      `inline; filename="_.pdf"; filename*=UTF-8''%F0%9F%A7%BE.pdf`,
    );
  });

  it('replaces what a quoted string or a browser would misread', () => {
    expect(inlineDisposition('a"b\\c%41/d.pdf')).toBe(
      `inline; filename="a_b_c_41_d.pdf"; filename*=UTF-8''a%22b%5Cc%2541%2Fd.pdf`,
    );
    expect(inlineDisposition('tab\there\r\n.pdf')).toBe(
      `inline; filename="tab_here__.pdf"; filename*=UTF-8''tab%09here%0D%0A.pdf`,
    );
    // RFC 5987 leaves fewer characters unencoded than encodeURIComponent.
    expect(inlineDisposition("it's (1)*é.pdf")).toContain(
      `filename*=UTF-8''it%27s%20%281%29%2A%C3%A9.pdf`,
    );
  });

  it('never throws, even on an unpaired surrogate', () => {
    expect(inlineDisposition('x\ud800.pdf')).toBe(
      `inline; filename="x_.pdf"; filename*=UTF-8''x%EF%BF%BD.pdf`,
    );
  });

  it('always gives a header value Node accepts', () => {
    const names = ['plain.pdf', 'ΑΒΓ.pdf', 'a\u0000b.pdf', 'x\u007f\u0085\u2028.pdf', '"\\'];
    for (const name of names) {
      expect(inlineDisposition(name)).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});

describe('inlineFile', () => {
  it('carries the type, the disposition and the length', () => {
    const file = inlineFile(Buffer.from('%PDF-1.7'), 'INV-1.pdf', 'application/pdf');
    expect(file.getHeaders()).toEqual({
      type: 'application/pdf',
      disposition: 'inline; filename="INV-1.pdf"',
      length: 8,
    });
  });
});
