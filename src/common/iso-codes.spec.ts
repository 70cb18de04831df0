import { COUNTRY_CODES, LANGUAGE_CODES } from './iso-codes';

describe('ISO codes', () => {
  it('lists the 249 assigned country codes once each, sorted, each a region Intl names', () => {
    const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    expect(COUNTRY_CODES).toHaveLength(249);
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
    expect(new Set(COUNTRY_CODES).size).toBe(COUNTRY_CODES.length);
    expect(COUNTRY_CODES.filter((code) => !/^[A-Z]{2}$/.test(code))).toEqual([]);
    expect(COUNTRY_CODES.filter((code) => regions.of(code) === undefined)).toEqual([]);
  });

  it('lists ISO 639-1 codes in use, sorted, each a language Intl names', () => {
    const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    expect(LANGUAGE_CODES).toHaveLength(184);
    expect([...LANGUAGE_CODES].sort()).toEqual(LANGUAGE_CODES);
    expect(new Set(LANGUAGE_CODES).size).toBe(LANGUAGE_CODES.length);
    expect(LANGUAGE_CODES.filter((code) => !/^[a-z]{2}$/.test(code))).toEqual([]);
    expect(LANGUAGE_CODES.filter((code) => languages.of(code) === undefined)).toEqual([]);
    // Withdrawn codes Intl still names (as he, id, yi, jv, ro, sr-Latn).
    for (const withdrawn of ['iw', 'in', 'ji', 'jw', 'mo', 'sh']) {
      expect(languages.of(withdrawn)).toBeDefined();
      expect(LANGUAGE_CODES).not.toContain(withdrawn);
    }
  });
});
