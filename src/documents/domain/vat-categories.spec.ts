import { Decimal } from '../../common/money/decimal';
import { DOCUMENT_LOCALES } from '../../document-vocabulary/document-locale';
import {
  VATEX_CODES,
  VAT_CATEGORIES,
  categoryAllowsZero,
  categoryName,
  categoryTakesAnyRate,
  defaultCategory,
  defaultExemption,
  isVatCategory,
  isVatexCode,
  needsExemption,
} from './vat-categories';

describe('VAT categories', () => {
  it('are the nine UNTDID 5305 codes EN 16931 uses', () => {
    expect(VAT_CATEGORIES).toEqual(['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M']);
    for (const category of VAT_CATEGORIES) expect(isVatCategory(category)).toBe(true);
  });

  it.each(['s', 'B', 'AA', 'H', 'A', '', ' S', 'includes', 'toString'])('refuses %p', (value) => {
    expect(isVatCategory(value)).toBe(false);
  });

  it('defaults to standard for a rate above 0 and to zero rated for 0', () => {
    expect(defaultCategory(new Decimal('19'))).toBe('S');
    expect(defaultCategory(new Decimal('0.0001'))).toBe('S');
    expect(defaultCategory(new Decimal('0'))).toBe('Z');
    expect(defaultCategory(new Decimal('0.000'))).toBe('Z');
  });

  it('lets S, L and M take any rate and holds the others to 0', () => {
    expect(VAT_CATEGORIES.filter(categoryTakesAnyRate)).toEqual(['S', 'L', 'M']);
  });

  it('refuses a rate of 0 for S only (BR-S-5)', () => {
    expect(VAT_CATEGORIES.filter((category) => !categoryAllowsZero(category))).toEqual(['S']);
  });

  it('asks for an exemption reason in E, AE, K, G and O', () => {
    expect(VAT_CATEGORIES.filter(needsExemption)).toEqual(['E', 'AE', 'K', 'G', 'O']);
  });

  it('names every category in every document language, each name its own', () => {
    for (const locale of DOCUMENT_LOCALES) {
      const names = VAT_CATEGORIES.map((category) => categoryName(category, locale));
      expect(names.filter((name) => name.trim() === '' || name.trim() !== name)).toEqual([]);
      expect(new Set(names).size).toBe(VAT_CATEGORIES.length);
    }
  });

  it('names categories as a printed breakdown does', () => {
    const row = (category: (typeof VAT_CATEGORIES)[number]) =>
      DOCUMENT_LOCALES.map((locale) => categoryName(category, locale));
    expect(DOCUMENT_LOCALES).toEqual(['en', 'de', 'fr', 'es']);
    expect(row('S')).toEqual(['Standard rate', 'Regelsteuersatz', 'Taux normal', 'Tipo general']);
    expect(row('Z')).toEqual(['Zero rated', 'Nullsatz', 'Taux zéro', 'Tipo cero']);
    expect(row('AE')).toEqual([
      'Reverse charge',
      'Reverse Charge',
      'Autoliquidation',
      'Inversión del sujeto pasivo',
    ]);
    expect(row('O')).toEqual([
      'Not subject to VAT',
      'Nicht steuerbar',
      'Hors champ de la TVA',
      'No sujeto',
    ]);
    expect(row('L').every((name) => name.startsWith('IGIC ('))).toBe(true);
    expect(row('M').every((name) => name.startsWith('IPSI ('))).toBe(true);
  });

  it('names categories in English for a language documents do not print in', () => {
    expect(categoryName('E', 'it')).toBe('Exempt');
    expect(categoryName('K', 'DE')).toBe('Intra-community supply');
  });
});

describe('VATEX codes', () => {
  it('are well formed and listed once each', () => {
    expect(VATEX_CODES.filter((code) => !/^VATEX-(EU|FR)-[A-Z0-9-]+$/.test(code))).toEqual([]);
    expect(VATEX_CODES.filter((code) => code.endsWith('-') || code.includes('--'))).toEqual([]);
    expect(new Set(VATEX_CODES).size).toBe(VATEX_CODES.length);
    expect(Object.isFrozen(VATEX_CODES)).toBe(true);
  });

  it('hold the 2024 list: every point of articles 132, 143, 148 and 151, and the rest', () => {
    expect(VATEX_CODES).toHaveLength(62);
    const points = (article: string) =>
      VATEX_CODES.filter((code) => code.startsWith(`VATEX-EU-${article}-`)).map((code) =>
        code.slice(`VATEX-EU-${article}-`.length),
      );
    expect(points('132')).toEqual('1A 1B 1C 1D 1E 1F 1G 1H 1I 1J 1K 1L 1M 1N 1O 1P 1Q'.split(' '));
    expect(points('143')).toEqual('1A 1B 1C 1D 1E 1F 1FA 1G 1H 1I 1J 1K 1L'.split(' '));
    expect(points('148')).toEqual('A B C D E F G'.split(' '));
    expect(points('151')).toEqual('1A 1AA 1B 1C 1D 1E'.split(' '));
    for (const code of [
      'VATEX-EU-79-C',
      'VATEX-EU-132',
      'VATEX-EU-143',
      'VATEX-EU-144',
      'VATEX-EU-146-1E',
      'VATEX-EU-148',
      'VATEX-EU-151',
      'VATEX-EU-159',
      'VATEX-EU-309',
      'VATEX-EU-AE',
      'VATEX-EU-D',
      'VATEX-EU-F',
      'VATEX-EU-G',
      'VATEX-EU-I',
      'VATEX-EU-IC',
      'VATEX-EU-J',
      'VATEX-EU-O',
      'VATEX-FR-FRANCHISE',
      'VATEX-FR-CNWVAT',
    ])
      expect(isVatexCode(code)).toBe(true);
  });

  it.each([
    'vatex-eu-ae',
    'VATEX-EU-AE ',
    'VATEX-EU-132-1R',
    'VATEX-EU-S',
    'VATEX-DE-AE',
    'AE',
    '',
  ])('refuses %p', (code) => {
    expect(isVatexCode(code)).toBe(false);
  });
});

describe('defaultExemption', () => {
  it('gives reverse charge, intra-community supply and export their reason and code', () => {
    expect(DOCUMENT_LOCALES.map((locale) => defaultExemption('AE', locale))).toEqual([
      { reason: 'Reverse charge', code: 'VATEX-EU-AE' },
      { reason: 'Steuerschuldnerschaft des Leistungsempfängers', code: 'VATEX-EU-AE' },
      { reason: 'Autoliquidation', code: 'VATEX-EU-AE' },
      { reason: 'Inversión del sujeto pasivo', code: 'VATEX-EU-AE' },
    ]);
    expect(DOCUMENT_LOCALES.map((locale) => defaultExemption('K', locale))).toEqual([
      { reason: 'Intra-community supply', code: 'VATEX-EU-IC' },
      { reason: 'Steuerfreie innergemeinschaftliche Lieferung', code: 'VATEX-EU-IC' },
      { reason: 'Livraison intracommunautaire exonérée', code: 'VATEX-EU-IC' },
      { reason: 'Entrega intracomunitaria exenta', code: 'VATEX-EU-IC' },
    ]);
    expect(DOCUMENT_LOCALES.map((locale) => defaultExemption('G', locale))).toEqual([
      { reason: 'Export outside the EU', code: 'VATEX-EU-G' },
      { reason: 'Steuerfreie Ausfuhrlieferung', code: 'VATEX-EU-G' },
      { reason: 'Exportation hors UE exonérée', code: 'VATEX-EU-G' },
      { reason: 'Exportación exenta fuera de la UE', code: 'VATEX-EU-G' },
    ]);
  });

  it('has none for the other categories', () => {
    const without = VAT_CATEGORIES.filter((category) => defaultExemption(category, 'en') === null);
    expect(without).toEqual(['S', 'Z', 'E', 'O', 'L', 'M']);
  });

  it('gives only VATEX codes, for categories that need an exemption', () => {
    for (const category of VAT_CATEGORIES) {
      const exemption = defaultExemption(category, 'en');
      if (exemption === null) continue;
      expect(isVatexCode(exemption.code)).toBe(true);
      expect(needsExemption(category)).toBe(true);
    }
  });

  it('falls back to English', () => {
    expect(defaultExemption('AE', 'pt')).toEqual({
      reason: 'Reverse charge',
      code: 'VATEX-EU-AE',
    });
  });
});
