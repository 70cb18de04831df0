import { Column, Entity } from 'typeorm';
import { IdColumn, TextColumn, TimestampColumn } from '../../database/columns';

/** One committed change, written in the change's own transaction; never changed. */
@Entity('events')
export class EventRecord {
  @IdColumn()
  id: number;

  /** `<object>.<verb>`: `invoice.payment_recorded`. */
  @TextColumn({ length: 64 })
  type: string;

  @TimestampColumn('created_at')
  createdAt: Date;

  /** The API key's id, `open` when the API has no keys, `system` for the service's own work. */
  @TextColumn({ length: 16 })
  actor: string;

  @TextColumn({ length: 32 })
  object: string;

  @Column({ name: 'object_id', type: 'int', unsigned: true })
  objectId: number;

  /** JSON text: the record as its read answers after the change. */
  @Column({ type: 'text' })
  data: string;

  /** JSON text: `{field: [before, after]}`. */
  @Column({ type: 'text' })
  changes: string;
}
