import { DOCUMENT_LOCALES } from '../../document-vocabulary/document-locale';
import { DEFAULT_UNIT, UNIT_CODES, isUnitCode, unitSymbol } from './unit-codes';

const codes = [...UNIT_CODES.keys()];

describe('UNIT_CODES', () => {
  it('holds Rec 20 codes only, each with an English name', () => {
    expect(UNIT_CODES.size).toBeGreaterThanOrEqual(80);
    expect(UNIT_CODES.size).toBeLessThanOrEqual(150);
    // Rec 20 codes are two or three upper-case letters or digits; Rec 21 package codes are X…
    expect(codes.filter((code) => !/^[A-Z0-9]{2,3}$/.test(code))).toEqual([]);
    expect(codes.filter((code) => /^X[A-Z0-9]{2}$/.test(code))).toEqual([]);
    expect([...UNIT_CODES.values()].filter((name) => !/^[a-zA-Z0-9]/.test(name))).toEqual([]);
  });

  it('names the units invoices use most', () => {
    expect(UNIT_CODES.get('C62')).toBe('one');
    expect(UNIT_CODES.get('H87')).toBe('piece');
    expect(UNIT_CODES.get('HUR')).toBe('hour');
    expect(UNIT_CODES.get('KGM')).toBe('kilogram');
    expect(UNIT_CODES.get('MTK')).toBe('square metre');
    expect(UNIT_CODES.get('KWH')).toBe('kilowatt hour');
    expect(UNIT_CODES.get('E48')).toBe('service unit');
    expect(UNIT_CODES.get('QAN')).toBe('quarter (of a year)');
  });

  it('has the default unit', () => {
    expect(DEFAULT_UNIT).toBe('C62');
    expect(isUnitCode(DEFAULT_UNIT)).toBe(true);
  });
});

describe('isUnitCode', () => {
  const common = `
    C62 H87 EA SET PR DZN GRO NAR LS E48 E49 LH SEC MIN HUR DAY WEE MON QAN ANN KGM GRM MGM TNE
    LBR ONZ MTR KMT CMT MMT INH FOT YRD SMI MTK KMK CMK FTK H18 MTQ LTR MLT CLT DLT HLT GLL KWH
    MWH GWH WHR KWT MAW KVA JOU KJO GV KMH
  `;
  it.each(common.trim().split(/\s+/))('accepts %s', (code) => {
    expect(isUnitCode(code)).toBe(true);
  });

  it.each([
    ['lower case, which the caller upper-cases first', 'kgm'],
    ['surrounding space', ' KGM'],
    ['a Rec 21 package code', 'XPP'],
    ['"mutually defined", which says nothing', 'ZZ'],
    ['KTM, no Rec 20 code (a kilometre is KMT)', 'KTM'],
    ['HAR, hectare, not in the EN 16931 list', 'HAR'],
    ['ARE, are, not in the EN 16931 list', 'ARE'],
    ['a plain word', 'PCS'],
    ['the empty string', ''],
    ['a name of Object.prototype', 'constructor'],
  ])('refuses %s', (_why, code) => {
    expect(isUnitCode(code)).toBe(false);
  });
});

describe('unitSymbol', () => {
  it('takes the singular after one (in French below two), the plural otherwise and without a quantity', () => {
    const row = (quantity?: string) =>
      DOCUMENT_LOCALES.map((locale) => unitSymbol('DAY', locale, quantity));
    expect(row('1')).toEqual(['day', 'Tag', 'jour', 'día']);
    expect(row('1.5')).toEqual(['days', 'Tage', 'jour', 'días']);
    expect(row('2')).toEqual(['days', 'Tage', 'jours', 'días']);
    expect(row()).toEqual(['days', 'Tage', 'jours', 'días']);
    expect(unitSymbol('HUR', 'de', '1')).toBe('Std.');
  });

  it('prints nothing after a plain count', () => {
    for (const locale of DOCUMENT_LOCALES) expect(unitSymbol('C62', locale)).toBe('');
  });

  it('prints a word for counted units, per language', () => {
    expect(DOCUMENT_LOCALES.map((locale) => unitSymbol('H87', locale))).toEqual([
      'pcs',
      'Stk.',
      'pcs',
      'uds.',
    ]);
    expect(DOCUMENT_LOCALES.map((locale) => unitSymbol('PR', locale))).toEqual([
      'pairs',
      'Paar',
      'paires',
      'pares',
    ]);
  });

  it('prints hours and longer spans as each language writes them', () => {
    const row = (code: string) => DOCUMENT_LOCALES.map((locale) => unitSymbol(code, locale));
    expect(DOCUMENT_LOCALES).toEqual(['en', 'de', 'fr', 'es']);
    expect(row('HUR')).toEqual(['h', 'Std.', 'h', 'h']);
    expect(row('DAY')).toEqual(['days', 'Tage', 'jours', 'días']);
    expect(row('WEE')).toEqual(['weeks', 'Wochen', 'semaines', 'semanas']);
    expect(row('MON')).toEqual(['months', 'Monate', 'mois', 'meses']);
    expect(row('ANN')).toEqual(['years', 'Jahre', 'ans', 'años']);
  });

  it('prints measures with their symbol in every language', () => {
    const symbols: Record<string, string> = {
      KGM: 'kg',
      GRM: 'g',
      TNE: 't',
      MTR: 'm',
      KMT: 'km',
      MTK: 'm²',
      MTQ: 'm³',
      LTR: 'l',
      MLT: 'ml',
      KWH: 'kWh',
      MWH: 'MWh',
      MIN: 'min',
      SEC: 's',
      H18: 'ha',
    };
    for (const [code, symbol] of Object.entries(symbols))
      for (const locale of DOCUMENT_LOCALES) expect(unitSymbol(code, locale)).toBe(symbol);
  });

  it('prints English for a language documents do not print in', () => {
    expect(unitSymbol('HUR', 'it')).toBe('h');
    expect(unitSymbol('DAY', 'nl')).toBe('days');
    expect(unitSymbol('H87', '')).toBe('pcs');
  });

  it('prints the code of a unit that has no symbol of its own, and of an unknown code', () => {
    expect(unitSymbol('DPC', 'de')).toBe('DPC');
    expect(unitSymbol('LPA', 'fr')).toBe('LPA');
    expect(unitSymbol('XPP', 'en')).toBe('XPP');
    expect(unitSymbol('constructor', 'en')).toBe('constructor');
  });

  it('prints something for every accepted unit but C62, in every language', () => {
    const blank = codes.flatMap((code) =>
      [...DOCUMENT_LOCALES, 'it'].flatMap((locale) => {
        const symbol = unitSymbol(code, locale);
        return symbol !== '' && symbol.trim() === symbol ? [] : [`${code}/${locale}`];
      }),
    );
    expect(blank).toEqual(['C62/en', 'C62/de', 'C62/fr', 'C62/es', 'C62/it']);
  });

  it('gives most accepted units a symbol of their own', () => {
    const own = codes.filter((code) => unitSymbol(code, 'en') !== code);
    expect(own.length).toBeGreaterThan(codes.length * 0.75);
  });
});
