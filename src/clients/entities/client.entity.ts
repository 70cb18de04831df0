import { Entity } from 'typeorm';
import { ArchivableRecord } from '../../database/archivable-record';
import { TextColumn } from '../../database/columns';
import { EINVOICE_ADDRESS_MAX_LENGTH } from '../../common/einvoice-codes';

@Entity('clients')
export class Client extends ArchivableRecord {
  @TextColumn({ length: 255 })
  names: string;

  @TextColumn({ length: 254 })
  email: string;

  @TextColumn({ length: 32 })
  phone: string;

  @TextColumn({ length: 1000 })
  address: string;

  @TextColumn({ name: 'tax_id', length: 32 })
  taxId: string;

  /** ISO 3166-1 alpha-2, upper case; '' when not given. */
  @TextColumn({ length: 2 })
  country: string;

  /** ISO 639-1, lower case; '' when not given. */
  @TextColumn({ length: 2 })
  language: string;

  /** Where it receives e-invoices, `scheme:identifier` (EAS); '' when not given. */
  @TextColumn({ name: 'einvoice_address', length: EINVOICE_ADDRESS_MAX_LENGTH })
  einvoiceAddress: string;

  /** The e-invoice format its documents are sent in (common/einvoice-codes.ts); '' for none. */
  @TextColumn({ name: 'einvoice_format', length: 16 })
  einvoiceFormat: string;

  /** BT-10, e.g. a Leitweg-ID: its invoices' buyer reference unless one is given; '' for none. */
  @TextColumn({ name: 'buyer_reference', length: 255 })
  buyerReference: string;
}
