import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/** The parts of a mysql2 pool that tell how busy it is (mysql2 3.x keeps them in queues). */
interface Mysql2Pool {
  _allConnections: { length: number };
  _freeConnections: { length: number };
}

/**
 * Database connections in use and idle, read at each scrape. On MySQL/MariaDB they come from
 * the mysql2 pool behind TypeORM's driver. SQLite has one connection, always open, whose work
 * waits in an in-process queue: it is reported as one idle connection.
 */
@Injectable()
export class DatabasePoolMetrics {
  constructor(registry: Registry, @InjectDataSource() dataSource: DataSource) {
    const counts = (): { inUse: number; idle: number } => {
      if (!dataSource.isInitialized) return { inUse: 0, idle: 0 };
      const pool = (dataSource.driver as { pool?: Mysql2Pool }).pool;
      if (!pool) return { inUse: 0, idle: 1 };
      const idle = pool._freeConnections.length;
      return { inUse: pool._allConnections.length - idle, idle };
    };
    new Gauge({
      name: 'db_pool_connections_in_use',
      help: 'Database connections running a query or holding a transaction',
      registers: [registry],
      collect() {
        this.set(counts().inUse);
      },
    });
    new Gauge({
      name: 'db_pool_connections_idle',
      help: 'Open database connections waiting in the pool',
      registers: [registry],
      collect() {
        this.set(counts().idle);
      },
    });
  }
}
