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
}
