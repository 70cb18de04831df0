import { ArchivedAtColumn, IdColumn, TimestampColumn } from './columns';

/** Columns every top-level record has: an id, its write times, and the archive marker. */
export abstract class ArchivableRecord {
  @IdColumn()
  id: number;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('updated_at')
  updatedAt: Date;

  @ArchivedAtColumn()
  deletedAt: Date | null;
}
