/**
 * The name of a tax that was given none, when TAX_NAME is not set (docs/taxes.md). A document
 * prints a tax of this name with its locale's word for tax (`USt.`, `TVA`, `IVA`); the
 * migration that brought taxes per line named every existing document's tax so.
 */
export const DEFAULT_TAX_NAME = 'Tax';
