import { Entity } from 'typeorm';
import { ArchivedAtColumn, IdColumn, TextColumn, TimestampColumn } from '../../database/columns';

@Entity('clients')
export class Client {
  @IdColumn()
  id: number;

  @TextColumn({ length: 255 })
  names: string;

  @TextColumn({ length: 254 })
  email: string;

  @TextColumn({ length: 32 })
  phone: string;

  @TextColumn({ length: 1000 })
  address: string;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('updated_at')
  updatedAt: Date;

  @ArchivedAtColumn()
  deletedAt: Date | null;
}
