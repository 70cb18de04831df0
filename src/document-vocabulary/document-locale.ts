/** The locales documents print in: a message file each (src/documents/i18n/messages/). */
export const DOCUMENT_LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type DocumentLocale = (typeof DOCUMENT_LOCALES)[number];
