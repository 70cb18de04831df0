/**
 * Whose invoice number a received invoice's BT-1 is (docs/einvoices.md, Import, Duplicates):
 * the seller's VAT identifier (BT-31) when it has one, written without spaces, dots or dashes
 * and in capitals (`DE 123 456 789` is `DE123456789`), else its name (BT-27) with white space
 * runs made one space. The prefixes keep an identifier and a name apart. At most 260
 * characters: each part is at most 255 (received-einvoice.ts).
 */
export function sellerKey(seller: { vatId: string; name: string }): string {
  const vatId = seller.vatId.replace(/[\s.-]/gu, '').toUpperCase();
  if (vatId !== '') return `vat:${vatId}`;
  return `name:${seller.name.replace(/\s+/gu, ' ').trim()}`;
}
