import { Entity } from 'typeorm';
import { ArchivableRecord } from '../../database/archivable-record';
import { TextColumn } from '../../database/columns';

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
}
