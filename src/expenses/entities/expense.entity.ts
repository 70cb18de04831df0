import { Entity } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import { ArchivableRecord } from '../../database/archivable-record';
import { DateOnlyColumn, DecimalColumn, TextColumn } from '../../database/columns';

@Entity('expenses')
export class Expense extends ArchivableRecord {
  @TextColumn({ name: 'short_code', length: 8 })
  shortCode: string;

  @TextColumn({ length: 32 })
  category: string;

  @TextColumn({ length: 1000 })
  description: string;

  @DecimalColumn()
  amount: Decimal;

  @TextColumn({ length: 3 })
  currency: string;

  @TextColumn({ length: 255 })
  vendor: string;

  @DateOnlyColumn('issued_date')
  issuedDate: string;
}
