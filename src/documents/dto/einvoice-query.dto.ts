import { IsDefined } from 'class-validator';
import { EINVOICE_FORMATS, EinvoiceFormat } from '../../common/einvoice-codes';
import { IsOneOf } from '../../common/input-rules';
import { ListedValueInputProperty } from '../../openapi/schema-property.decorator';

/** `GET /invoice/{id}/einvoice`, `GET /credit-note/{id}/einvoice`. */
export class EinvoiceQueryDto {
  @ListedValueInputProperty(EINVOICE_FORMATS, {
    description:
      'ubl (EN 16931, UBL 2.1), cii (EN 16931, UN/CEFACT CII D16B), peppol (Peppol BIS Billing 3.0), xrechnung-ubl or xrechnung-cii (XRechnung 3.0): application/xml; facturx (the PDF as PDF/A-3b with the CII embedded as factur-x.xml): application/pdf',
  })
  @IsDefined({ message: 'format is required' })
  @IsOneOf(EINVOICE_FORMATS)
  format!: EinvoiceFormat;
}

/** The 422 of the e-invoice routes, in their OpenAPI. */
export const EINVOICE_INCOMPLETE =
  'A missing or unknown format, or a piece the format needs that the document, its client or the COMPANY_* settings lack, each named in errors';
