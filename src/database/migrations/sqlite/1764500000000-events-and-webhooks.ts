import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventsAndWebhooks1764500000000 implements MigrationInterface {
  name = 'EventsAndWebhooks1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    // See the MySQL migration.
    await runner.query(`
      CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        type TEXT NOT NULL,
        created_at TEXT NOT NULL,
        actor TEXT NOT NULL,
        object TEXT NOT NULL,
        object_id INTEGER NOT NULL,
        data TEXT NOT NULL,
        changes TEXT NOT NULL
      )`);
    await runner.query('CREATE INDEX idx_events_object ON events (object, object_id, id)');
    await runner.query('CREATE INDEX idx_events_type ON events (type, id)');
    await runner.query('CREATE INDEX idx_events_created ON events (created_at, id)');
    await runner.query(`
      CREATE TABLE webhook_endpoints (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        url TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        events TEXT NOT NULL,
        secret TEXT NOT NULL,
        enabled INTEGER NOT NULL,
        disabled_reason TEXT NOT NULL DEFAULT '',
        failing_since TEXT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT NULL
      )`);
    await runner.query(`
      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id INTEGER NOT NULL,
        endpoint_id INTEGER NOT NULL,
        status TEXT NOT NULL
          CHECK (status IN ('queued', 'sending', 'delivered', 'failed', 'paused')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NULL,
        claimed_at TEXT NULL,
        delivered_at TEXT NULL,
        last_error TEXT NOT NULL DEFAULT '',
        last_status_code INTEGER NULL,
        created_at TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX uq_webhook_deliveries_event_endpoint ON webhook_deliveries (event_id, endpoint_id)',
    );
    await runner.query(
      'CREATE INDEX idx_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL',
    );
    await runner.query(
      'CREATE INDEX idx_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id)',
    );
    await runner.query(`
      CREATE TABLE webhook_delivery_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        delivery_id INTEGER NOT NULL,
        attempted_at TEXT NOT NULL,
        status_code INTEGER NULL,
        duration_ms INTEGER NOT NULL,
        error TEXT NOT NULL DEFAULT '',
        response_body TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX idx_webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhook_delivery_attempts');
    await runner.query('DROP TABLE webhook_deliveries');
    await runner.query('DROP TABLE webhook_endpoints');
    await runner.query('DROP TABLE events');
  }
}
