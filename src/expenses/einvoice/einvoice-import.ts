import { DomainException, FieldErrors } from '../../common/domain.exception';
import { isCurrencyCode } from '../../common/money/currency';
import { Decimal } from '../../common/money/decimal';
import { MONEY_LIMIT, roundMoney } from '../../common/money/money';
import { parseUntrustedXml, XmlRefused } from '../../common/xml/untrusted-xml';
import { calculationProblems } from './calculation-rules';
import { embeddedEinvoice, PdfAttachmentRefused } from './pdf-attachment';
import { readReceivedEinvoice, ReceivedEinvoice } from './received-einvoice';

/** What the file was: UBL 2.1, CII D16B, or a Factur-X / ZUGFeRD PDF with its XML inside. */
export const SOURCE_FORMATS = ['ubl', 'cii', 'facturx'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

export const XML_MEDIA_TYPE = 'application/xml';
export const PDF_MEDIA_TYPE = 'application/pdf';

/** A received e-invoice that passed every check, with the file it came in. */
export interface ImportedEinvoice {
  format: SourceFormat;
  /** The media type the file is answered with by GET /expense/{id}/source. */
  mediaType: typeof XML_MEDIA_TYPE | typeof PDF_MEDIA_TYPE;
  content: Buffer;
  invoice: ReceivedEinvoice;
  /** BT-115, negated for a credit note: what the expense records. */
  amount: Decimal;
}

const PDF_MAGIC = Buffer.from('%PDF-');

/**
 * Reads a received e-invoice file, whatever media type it was sent with: a PDF is known by its
 * header, anything else must be XML. Every refusal is a 422 naming the reason by field: `file`
 * for what is not a readable document, the EN 16931 term (`BT-115`) or rule (`BR-CO-16`)
 * otherwise.
 */
export async function readEinvoiceFile(content: Buffer): Promise<ImportedEinvoice> {
  if (content.length === 0) throw refused({ file: ['The file is empty'] });
  const isPdf = content.subarray(0, 1024).includes(PDF_MAGIC);
  let xml: Buffer = content;
  if (isPdf) {
    try {
      xml = await embeddedEinvoice(content);
    } catch (error) {
      if (error instanceof PdfAttachmentRefused) throw refused({ file: [error.message] });
      throw error;
    }
  }
  let parsed;
  try {
    parsed = parseUntrustedXml(xml);
  } catch (error) {
    if (error instanceof XmlRefused) throw refused({ file: [error.message] });
    throw error;
  }
  const outcome = readReceivedEinvoice(parsed);
  if ('problems' in outcome) throw refused(outcome.problems);
  const { invoice } = outcome;
  const problems = { ...calculationProblems(invoice), ...amountProblems(invoice) };
  if (Object.keys(problems).length > 0) throw refused(problems);
  return {
    format: isPdf ? 'facturx' : invoice.syntax,
    mediaType: isPdf ? PDF_MEDIA_TYPE : XML_MEDIA_TYPE,
    content,
    invoice,
    amount: invoice.creditNote ? invoice.totals.due.negated() : invoice.totals.due,
  };
}

/** What the expense's own rules need of the currency and the amount due. */
function amountProblems(invoice: ReceivedEinvoice): FieldErrors {
  if (!isCurrencyCode(invoice.currency)) {
    return { 'BT-5': [`The currency (BT-5) "${invoice.currency}" is no active ISO 4217 code`] };
  }
  const due = invoice.totals.due;
  if (!roundMoney(due, invoice.currency).equals(due)) {
    return {
      'BT-115': [
        `The amount due (BT-115) ${due.toFixed()} has more places than ${invoice.currency} has minor digits`,
      ],
    };
  }
  if (due.abs().greaterThanOrEqualTo(MONEY_LIMIT)) {
    return { 'BT-115': ['The amount due (BT-115) is not below 10000000000000'] };
  }
  return {};
}

function refused(errors: FieldErrors): DomainException {
  const first = Object.values(errors)[0]?.[0] ?? 'The e-invoice was refused';
  return new DomainException('EINVOICE_REFUSED', `The e-invoice was refused: ${first}`, errors);
}
