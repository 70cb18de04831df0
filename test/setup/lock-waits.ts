import { setTimeout as sleep } from 'node:timers/promises';
import type { Connection, RowDataPacket } from 'mysql2/promise';

/**
 * How many transactions of `watcher`'s database wait for a row lock, once any does (5 s at
 * most). MariaDB only; other test files share the server, so only this database's count.
 */
export async function lockWaits(watcher: Connection): Promise<number> {
  let waiting = 0;
  const deadline = Date.now() + 5000;
  while (waiting === 0 && Date.now() < deadline) {
    const [rows] = await watcher.query<RowDataPacket[]>(
      `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
       WHERE DB = DATABASE() AND ID IN (SELECT trx_mysql_thread_id FROM information_schema.INNODB_TRX
                                        WHERE trx_state = 'LOCK WAIT')`,
    );
    waiting = Number(rows[0].n);
    // InnoDB refreshes INNODB_TRX only when it was not read for 100 ms.
    if (waiting === 0) await sleep(150);
  }
  return waiting;
}
