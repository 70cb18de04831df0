import { DOCUMENT_LOCALES, type DocumentLocale } from '../../document-vocabulary/document-locale';
import type { Decimal } from '../../common/money/decimal';

/*
 * The VAT category of a line or a breakdown (EN 16931 BT-151, BT-118): the subset of UNTDID
 * 5305 "duty or tax or fee category code" that EN 16931 uses, and the VATEX exemption reason
 * codes (BT-121) of the CEF code list as published in 2024.
 */

export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/** Exactly as given: callers upper-case input first. */
export function isVatCategory(value: string): value is VatCategory {
  return (VAT_CATEGORIES as readonly string[]).includes(value);
}

/** A line that names no category: standard rated when it carries VAT, else zero rated. */
export function defaultCategory(rate: Decimal): VatCategory {
  return rate.gt(0) ? 'S' : 'Z';
}

/**
 * Whether the category takes a rate of the issuer's choosing: the standard rate and the two
 * Spanish territorial taxes (IGIC, IPSI) do. Every other category takes 0 only (EN 16931
 * BR-Z-5, BR-E-5, BR-AE-5, BR-IC-5, BR-G-5; O has no rate at all, BR-O-5, and 0 stands for none).
 */
export function categoryTakesAnyRate(category: VatCategory): boolean {
  return category === 'S' || category === 'L' || category === 'M';
}

/** Whether a rate of 0 fits the category: not for S, whose rate is above 0 (BR-S-5). */
export function categoryAllowsZero(category: VatCategory): boolean {
  return category !== 'S';
}

/**
 * Whether the category's VAT breakdown must say why no VAT is charged, as a text or a VATEX
 * code (EN 16931 BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10).
 */
export function needsExemption(category: VatCategory): boolean {
  return (
    category === 'E' ||
    category === 'AE' ||
    category === 'K' ||
    category === 'G' ||
    category === 'O'
  );
}

const articles = (prefix: string, points: string): string[] =>
  points.split(' ').map((point) => `${prefix}-${point}`);

/**
 * VATEX: reasons for exemption, by article of Council Directive 2006/112/EC (`VATEX-EU-132-1A`
 * is article 132(1)(a)), by kind of supply (`VATEX-EU-IC`, intra-community supply), and the two
 * French national codes. The list as published in 2024.
 */
export const VATEX_CODES: readonly string[] = Object.freeze([
  'VATEX-EU-79-C',
  'VATEX-EU-132',
  ...articles('VATEX-EU-132', '1A 1B 1C 1D 1E 1F 1G 1H 1I 1J 1K 1L 1M 1N 1O 1P 1Q'),
  'VATEX-EU-143',
  ...articles('VATEX-EU-143', '1A 1B 1C 1D 1E 1F 1FA 1G 1H 1I 1J 1K 1L'),
  'VATEX-EU-144',
  'VATEX-EU-146-1E',
  'VATEX-EU-148',
  ...articles('VATEX-EU-148', 'A B C D E F G'),
  'VATEX-EU-151',
  ...articles('VATEX-EU-151', '1A 1AA 1B 1C 1D 1E'),
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
]);

const VATEX = new Set(VATEX_CODES);

/** Exactly as given: callers upper-case input first. */
export function isVatexCode(code: string): boolean {
  return VATEX.has(code);
}

type Wording = Readonly<Record<DocumentLocale, string>>;

function isDocumentLocale(language: string): language is DocumentLocale {
  return (DOCUMENT_LOCALES as readonly string[]).includes(language);
}

/** The wording for `language`, English for a language documents do not print in. */
function worded(wording: Wording, language: string): string {
  return wording[isDocumentLocale(language) ? language : 'en'];
}

/**
 * The categories whose reason follows from the category alone. E and O do not: which article
 * exempts a supply, or why it is outside VAT, is the issuer's to say.
 */
const DEFAULT_EXEMPTIONS: Partial<Record<VatCategory, { code: string; reason: Wording }>> = {
  AE: {
    code: 'VATEX-EU-AE',
    reason: {
      en: 'Reverse charge',
      de: 'Steuerschuldnerschaft des Leistungsempfängers',
      fr: 'Autoliquidation',
      es: 'Inversión del sujeto pasivo',
    },
  },
  K: {
    code: 'VATEX-EU-IC',
    reason: {
      en: 'Intra-community supply',
      de: 'Steuerfreie innergemeinschaftliche Lieferung',
      fr: 'Livraison intracommunautaire exonérée',
      es: 'Entrega intracomunitaria exenta',
    },
  },
  G: {
    code: 'VATEX-EU-G',
    reason: {
      en: 'Export outside the EU',
      de: 'Steuerfreie Ausfuhrlieferung',
      fr: 'Exportation hors UE exonérée',
      es: 'Exportación exenta fuera de la UE',
    },
  },
};

/**
 * The exemption reason and VATEX code a line in the category gets when it gives none, in the
 * document's language; null for the categories that have no such default.
 */
export function defaultExemption(
  category: VatCategory,
  language: string,
): { reason: string; code: string } | null {
  const exemption = DEFAULT_EXEMPTIONS[category];
  if (exemption === undefined) return null;
  return { reason: worded(exemption.reason, language), code: exemption.code };
}

const CATEGORY_NAMES: Record<VatCategory, Wording> = {
  S: { en: 'Standard rate', de: 'Regelsteuersatz', fr: 'Taux normal', es: 'Tipo general' },
  Z: { en: 'Zero rated', de: 'Nullsatz', fr: 'Taux zéro', es: 'Tipo cero' },
  E: { en: 'Exempt', de: 'Steuerbefreit', fr: 'Exonéré', es: 'Exento' },
  AE: {
    en: 'Reverse charge',
    de: 'Reverse Charge',
    fr: 'Autoliquidation',
    es: 'Inversión del sujeto pasivo',
  },
  K: {
    en: 'Intra-community supply',
    de: 'Innergemeinschaftliche Lieferung',
    fr: 'Livraison intracommunautaire',
    es: 'Entrega intracomunitaria',
  },
  G: { en: 'Export', de: 'Ausfuhr', fr: 'Exportation', es: 'Exportación' },
  O: {
    en: 'Not subject to VAT',
    de: 'Nicht steuerbar',
    fr: 'Hors champ de la TVA',
    es: 'No sujeto',
  },
  L: {
    en: 'IGIC (Canary Islands)',
    de: 'IGIC (Kanarische Inseln)',
    fr: 'IGIC (îles Canaries)',
    es: 'IGIC (Canarias)',
  },
  M: {
    en: 'IPSI (Ceuta and Melilla)',
    de: 'IPSI (Ceuta und Melilla)',
    fr: 'IPSI (Ceuta et Melilla)',
    es: 'IPSI (Ceuta y Melilla)',
  },
};

/** What a printed VAT breakdown calls the category, in `language` (English for others). */
export function categoryName(category: VatCategory, language: string): string {
  return worded(CATEGORY_NAMES[category], language);
}
