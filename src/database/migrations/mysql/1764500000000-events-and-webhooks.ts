import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventsAndWebhooks1764500000000 implements MigrationInterface {
  name = 'EventsAndWebhooks1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    // One row per committed change, written in the change's transaction. Never updated or
    // deleted. `data` and `changes` are JSON text as the API answers them (MEDIUMTEXT: an
    // invoice of 500 long lines is past TEXT's 64 KiB). Each filter of GET /event/all is one
    // range of one index ending in the id, so the feed's keyset pages cost the same at any depth.
    await runner.query(`
      CREATE TABLE events (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        type VARCHAR(64) NOT NULL,
        created_at DATETIME NOT NULL,
        actor VARCHAR(16) NOT NULL,
        object VARCHAR(32) NOT NULL,
        object_id INT UNSIGNED NOT NULL,
        data MEDIUMTEXT NOT NULL,
        changes MEDIUMTEXT NOT NULL,
        PRIMARY KEY (id),
        KEY idx_events_object (object, object_id, id),
        KEY idx_events_type (type, id),
        KEY idx_events_created (created_at, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    // `events` is the JSON array of the types subscribed to (or ["*"]). `failing_since` is
    // the first failed attempt since the last success: how long the endpoint has been failing.
    await runner.query(`
      CREATE TABLE webhook_endpoints (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        url VARCHAR(2048) NOT NULL,
        description VARCHAR(1000) NOT NULL DEFAULT '',
        events TEXT NOT NULL,
        secret VARCHAR(128) NOT NULL,
        enabled TINYINT(1) NOT NULL,
        disabled_reason VARCHAR(255) NOT NULL DEFAULT '',
        failing_since DATETIME(3) NULL,
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL,
        deleted_at DATETIME NULL,
        PRIMARY KEY (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    // One row per (event, endpoint), made with the event: the unique key is what makes two
    // instances deliver each once. Claimed like the e-mail outbox (`next_attempt_at`: the
    // backoff while queued, the lease while sending, NULL otherwise).
    await runner.query(`
      CREATE TABLE webhook_deliveries (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        event_id INT UNSIGNED NOT NULL,
        endpoint_id INT UNSIGNED NOT NULL,
        status VARCHAR(10) NOT NULL,
        attempts SMALLINT UNSIGNED NOT NULL DEFAULT 0,
        next_attempt_at DATETIME(3) NULL,
        claimed_at DATETIME(3) NULL,
        delivered_at DATETIME NULL,
        last_error VARCHAR(255) NOT NULL DEFAULT '',
        last_status_code SMALLINT UNSIGNED NULL,
        created_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_webhook_deliveries_event_endpoint (event_id, endpoint_id),
        KEY idx_webhook_deliveries_due (next_attempt_at),
        KEY idx_webhook_deliveries_endpoint (endpoint_id, id),
        CONSTRAINT chk_webhook_deliveries_status
          CHECK (status IN ('queued', 'sending', 'delivered', 'failed', 'paused'))
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE webhook_delivery_attempts (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        delivery_id INT UNSIGNED NOT NULL,
        attempted_at DATETIME(3) NOT NULL,
        status_code SMALLINT UNSIGNED NULL,
        duration_ms INT UNSIGNED NOT NULL,
        error VARCHAR(255) NOT NULL DEFAULT '',
        response_body TEXT NOT NULL,
        PRIMARY KEY (id),
        KEY idx_webhook_delivery_attempts_delivery (delivery_id, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhook_delivery_attempts');
    await runner.query('DROP TABLE webhook_deliveries');
    await runner.query('DROP TABLE webhook_endpoints');
    await runner.query('DROP TABLE events');
  }
}
