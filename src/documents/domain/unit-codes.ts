import { DOCUMENT_LOCALES, type DocumentLocale } from '../../document-vocabulary/document-locale';

/*
 * The units of measure an invoice line's quantity takes (EN 16931 BT-130, "invoiced quantity
 * unit of measure code"): codes of UN/ECE Recommendation No. 20, revision 17 (2021) and later,
 * with its English names. A selection: the 1,700-odd codes of Rec 20 are mostly units of physics
 * (pascal per kelvin, …) that no priced line is counted in. Each code here is in the EN 16931
 * unit code list as validators apply it; codes of Recommendation 21 (package types, `XPP`) are
 * not units and are not accepted. `HAR` (hectare) and `ARE` (are), found in older Rec 20 lists,
 * are not in the EN 16931 list either: a hectare is `H18`, the square hectometre.
 */
const UNIT_NAMES = {
  // Counts: what a line is priced per when it is not a measure.
  C62: 'one',
  H87: 'piece',
  EA: 'each',
  NAR: 'number of articles',
  SET: 'set',
  PR: 'pair',
  DZN: 'dozen',
  DPC: 'dozen piece',
  GRO: 'gross',
  CEN: 'hundred',
  MIL: 'thousand',
  MIO: 'million',
  TP: 'ten pack',
  TPR: 'ten pair',
  NMP: 'number of packs',
  NPT: 'number of parts',
  KT: 'kit',
  AS: 'assortment',
  LO: 'lot [unit of procurement]',
  '5B': 'batch',
  SX: 'shipment',
  ZP: 'page',
  IE: 'person',
  PTN: 'portion',
  // Services and work.
  LS: 'lump sum',
  E48: 'service unit',
  E49: 'working day',
  E50: 'accounting unit',
  E51: 'job',
  E53: 'test',
  E54: 'trip',
  E55: 'use',
  ACT: 'activity',
  LH: 'labour hour',
  // Time.
  SEC: 'second [unit of time]',
  MIN: 'minute [unit of time]',
  HUR: 'hour',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  QAN: 'quarter (of a year)',
  SAN: 'half year (6 months)',
  ANN: 'year',
  // Mass.
  MC: 'microgram',
  MGM: 'milligram',
  GRM: 'gram',
  KGM: 'kilogram',
  DTN: 'decitonne',
  TNE: 'tonne (metric ton)',
  KTN: 'kilotonne',
  E4: 'gross kilogram',
  '58': 'net kilogram',
  CTM: 'metric carat',
  LBR: 'pound',
  ONZ: 'ounce (avoirdupois)',
  APZ: 'troy ounce or apothecary ounce',
  STN: 'ton (US) or short ton (UK/US)',
  LTN: 'ton (UK) or long ton (US)',
  // Length.
  '4H': 'micrometre (micron)',
  MMT: 'millimetre',
  CMT: 'centimetre',
  DMT: 'decimetre',
  MTR: 'metre',
  KMT: 'kilometre',
  LM: 'linear metre',
  INH: 'inch',
  FOT: 'foot',
  YRD: 'yard',
  SMI: 'mile (statute mile)',
  NMI: 'nautical mile',
  // Area.
  MMK: 'square millimetre',
  CMK: 'square centimetre',
  DMK: 'square decimetre',
  MTK: 'square metre',
  DAA: 'decare',
  H18: 'square hectometre',
  KMK: 'square kilometre',
  INK: 'square inch',
  FTK: 'square foot',
  YDK: 'square yard',
  ACR: 'acre',
  MIK: 'square mile (statute mile)',
  // Volume.
  MMQ: 'cubic millimetre',
  CMQ: 'cubic centimetre',
  DMQ: 'cubic decimetre',
  MTQ: 'cubic metre',
  MLT: 'millilitre',
  CLT: 'centilitre',
  DLT: 'decilitre',
  LTR: 'litre',
  HLT: 'hectolitre',
  MAL: 'megalitre',
  LPA: 'litre of pure alcohol',
  INQ: 'cubic inch',
  FTQ: 'cubic foot',
  YDQ: 'cubic yard',
  OZA: 'fluid ounce (US)',
  OZI: 'fluid ounce (UK)',
  GLL: 'gallon (US)',
  GLI: 'gallon (UK)',
  BLL: 'barrel (US)',
  // Energy, power and electricity.
  WHR: 'watt hour',
  KWH: 'kilowatt hour',
  MWH: 'megawatt hour (1000 kW.h)',
  GWH: 'gigawatt hour',
  D32: 'terawatt hour',
  JOU: 'joule',
  KJO: 'kilojoule',
  '3B': 'megajoule',
  GV: 'gigajoule',
  BTU: 'British thermal unit (international table)',
  WTT: 'watt',
  KWT: 'kilowatt',
  MAW: 'megawatt',
  KVA: 'kilovolt-ampere',
  MVA: 'megavolt-ampere',
  KVR: 'kilovar',
  AMP: 'ampere',
  VLT: 'volt',
  KVT: 'kilovolt',
  AMH: 'ampere hour',
  // Transport and data.
  KMH: 'kilometre per hour',
  TKM: 'tonne kilometre',
  AD: 'byte',
  '2P': 'kilobyte',
  '4L': 'megabyte',
  E34: 'gigabyte',
  E35: 'terabyte',
} as const;

type UnitCode = keyof typeof UNIT_NAMES;

/** Code → English name, for every unit an invoice line accepts. */
export const UNIT_CODES: ReadonlyMap<string, string> = new Map(Object.entries(UNIT_NAMES));

/**
 * The unit of a line that names none: "one", a plain count. EN 16931 requires a unit on every
 * line, and C62 is the one that adds nothing to the quantity.
 */
export const DEFAULT_UNIT = 'C62';

/** Exactly as given: callers upper-case input first, so `kgm` is refused here. */
export function isUnitCode(code: string): boolean {
  return UNIT_CODES.has(code);
}

/** A symbol that reads the same in every language, or a word per language. */
type UnitSymbol =
  | string
  | Readonly<Record<DocumentLocale, string>>
  | {
      plural: Readonly<Record<DocumentLocale, string>>;
      one: Readonly<Record<DocumentLocale, string>>;
    };

const perLanguage = (en: string, de: string, fr: string, es: string): UnitSymbol => ({
  en,
  de,
  fr,
  es,
});

/** A word that takes the singular after one (`1 day`, `2 days`; French below two: `1,5 jour`). */
const counted = (
  plural: [en: string, de: string, fr: string, es: string],
  one: [en: string, de: string, fr: string, es: string],
): UnitSymbol => ({
  plural: { en: plural[0], de: plural[1], fr: plural[2], es: plural[3] },
  one: { en: one[0], de: one[1], fr: one[2], es: one[3] },
});

/**
 * What the quantity column prints after the number. Measures print their SI or customary
 * symbol, the same in every language; counts and time spans print the word an invoice in that
 * language uses (German `Std.` for hours, as German invoices write it). Units missing here
 * print their code.
 */
const SYMBOLS: Partial<Record<UnitCode, UnitSymbol>> = {
  // A plain count prints the number alone.
  C62: '',
  H87: perLanguage('pcs', 'Stk.', 'pcs', 'uds.'),
  EA: perLanguage('ea', 'Stk.', 'pcs', 'uds.'),
  NAR: counted(['items', 'Stk.', 'articles', 'artículos'], ['item', 'Stk.', 'article', 'artículo']),
  SET: counted(['sets', 'Sets', 'jeux', 'juegos'], ['set', 'Set', 'jeu', 'juego']),
  PR: counted(['pairs', 'Paar', 'paires', 'pares'], ['pair', 'Paar', 'paire', 'par']),
  DZN: perLanguage('doz.', 'Dtzd.', 'douz.', 'doc.'),
  GRO: perLanguage('gross', 'Gros', 'grosses', 'gruesas'),
  KT: counted(['kits', 'Kits', 'kits', 'kits'], ['kit', 'Kit', 'kit', 'kit']),
  ZP: counted(['pages', 'Seiten', 'pages', 'págs.'], ['page', 'Seite', 'page', 'pág.']),
  IE: perLanguage('pers.', 'Pers.', 'pers.', 'pers.'),
  LS: perLanguage('lump sum', 'pauschal', 'forfait', 'global'),
  E48: counted(['units', 'Einh.', 'unités', 'uds.'], ['unit', 'Einh.', 'unité', 'ud.']),
  E49: counted(
    ['working days', 'Arbeitstage', 'jours ouvrés', 'días hábiles'],
    ['working day', 'Arbeitstag', 'jour ouvré', 'día hábil'],
  ),
  E54: counted(['trips', 'Fahrten', 'trajets', 'viajes'], ['trip', 'Fahrt', 'trajet', 'viaje']),
  LH: perLanguage('h', 'Std.', 'h', 'h'),
  SEC: 's',
  MIN: 'min',
  HUR: perLanguage('h', 'Std.', 'h', 'h'),
  DAY: counted(['days', 'Tage', 'jours', 'días'], ['day', 'Tag', 'jour', 'día']),
  WEE: counted(['weeks', 'Wochen', 'semaines', 'semanas'], ['week', 'Woche', 'semaine', 'semana']),
  MON: counted(['months', 'Monate', 'mois', 'meses'], ['month', 'Monat', 'mois', 'mes']),
  QAN: counted(
    ['quarters', 'Quartale', 'trimestres', 'trimestres'],
    ['quarter', 'Quartal', 'trimestre', 'trimestre'],
  ),
  SAN: counted(
    ['half-years', 'Halbjahre', 'semestres', 'semestres'],
    ['half-year', 'Halbjahr', 'semestre', 'semestre'],
  ),
  ANN: counted(['years', 'Jahre', 'ans', 'años'], ['year', 'Jahr', 'an', 'año']),
  MC: 'µg',
  MGM: 'mg',
  GRM: 'g',
  KGM: 'kg',
  DTN: 'dt',
  TNE: 't',
  KTN: 'kt',
  CTM: 'ct',
  LBR: 'lb',
  ONZ: 'oz',
  APZ: 'oz t',
  '4H': 'µm',
  MMT: 'mm',
  CMT: 'cm',
  DMT: 'dm',
  MTR: 'm',
  KMT: 'km',
  LM: perLanguage('lin. m', 'lfm', 'ml', 'ml'),
  INH: 'in',
  FOT: 'ft',
  YRD: 'yd',
  SMI: 'mi',
  NMI: 'nmi',
  MMK: 'mm²',
  CMK: 'cm²',
  DMK: 'dm²',
  MTK: 'm²',
  DAA: 'daa',
  H18: 'ha',
  KMK: 'km²',
  INK: 'in²',
  FTK: 'ft²',
  YDK: 'yd²',
  ACR: 'ac',
  MIK: 'mi²',
  MMQ: 'mm³',
  CMQ: 'cm³',
  DMQ: 'dm³',
  MTQ: 'm³',
  MLT: 'ml',
  CLT: 'cl',
  DLT: 'dl',
  LTR: 'l',
  HLT: 'hl',
  MAL: 'Ml',
  INQ: 'in³',
  FTQ: 'ft³',
  YDQ: 'yd³',
  OZA: 'fl oz (US)',
  OZI: 'fl oz (UK)',
  GLL: 'gal (US)',
  GLI: 'gal (UK)',
  BLL: 'bbl',
  WHR: 'Wh',
  KWH: 'kWh',
  MWH: 'MWh',
  GWH: 'GWh',
  D32: 'TWh',
  JOU: 'J',
  KJO: 'kJ',
  '3B': 'MJ',
  GV: 'GJ',
  BTU: 'Btu',
  WTT: 'W',
  KWT: 'kW',
  MAW: 'MW',
  KVA: 'kVA',
  MVA: 'MVA',
  KVR: 'kvar',
  AMP: 'A',
  VLT: 'V',
  KVT: 'kV',
  AMH: 'Ah',
  KMH: 'km/h',
  TKM: 'tkm',
  AD: 'B',
  '2P': 'kB',
  '4L': 'MB',
  E34: 'GB',
  E35: 'TB',
};

function isDocumentLocale(language: string): language is DocumentLocale {
  return (DOCUMENT_LOCALES as readonly string[]).includes(language);
}

/**
 * What a printed invoice shows after a quantity in `language` (en, de, fr, es; any other
 * language prints as English): '' for C62, a symbol or word for units that have one, and the
 * code itself for the rest, including a code this service no longer accepts, so a stored line
 * always prints.
 */
export function unitSymbol(code: string, language: string, quantity?: string): string {
  if (!isUnitCode(code) || !Object.hasOwn(SYMBOLS, code)) return code;
  const symbol = SYMBOLS[code as UnitCode] ?? code;
  if (typeof symbol === 'string') return symbol;
  const locale = isDocumentLocale(language) ? language : 'en';
  if (!('plural' in symbol)) return symbol[locale];
  return isOne(quantity, locale) ? symbol.one[locale] : symbol.plural[locale];
}

/**
 * Whether a quantity (plain decimal text) takes the singular: exactly one, or in French any
 * quantity below two (`1,5 jour`); without a quantity, the plural.
 */
function isOne(quantity: string | undefined, locale: DocumentLocale): boolean {
  if (quantity === undefined || !/^[0-9]+(\.[0-9]+)?$/.test(quantity)) return false;
  const value = Number(quantity);
  return locale === 'fr' ? value < 2 : value === 1;
}
