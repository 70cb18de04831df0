import { formatTimestamp } from '../common/clock';
import {
  WebhookAttemptDto,
  WebhookDeliveryDto,
  WebhookDto,
  WebhookResponseDto,
  WebhookSecretResponseDto,
  WebhookWithSecretDto,
} from './dto/webhook-response.dto';
import { WebhookDeliveryAttempt } from './entities/webhook-delivery-attempt.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';

export function toOutput(endpoint: WebhookEndpoint): WebhookDto {
  return {
    id: String(endpoint.id),
    url: endpoint.url,
    events: JSON.parse(endpoint.events) as string[],
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    created_at: formatTimestamp(endpoint.createdAt),
    updated_at: formatTimestamp(endpoint.updatedAt),
  };
}

export function toOutputWithSecret(endpoint: WebhookEndpoint): WebhookWithSecretDto {
  return { ...toOutput(endpoint), secret: endpoint.secret };
}

/**
 * What an Idempotency-Key keeps of an answer with the secret, to replay: the endpoint without
 * it. The secret exists in plain text only in the endpoint's row (rotate again for a new one).
 */
export function withoutSecret(answer: WebhookSecretResponseDto): WebhookResponseDto {
  return { webhook: answer.webhook.map(({ secret: _secret, ...endpoint }) => endpoint) };
}

export function toDeliveryOutput(
  delivery: WebhookDelivery,
  eventType: string,
  attempts: WebhookDeliveryAttempt[],
): WebhookDeliveryDto {
  return {
    id: String(delivery.id),
    event_id: String(delivery.eventId),
    event_type: eventType,
    status: delivery.status === 'sending' ? 'sending' : delivery.status,
    attempts: delivery.attempts,
    next_attempt_at:
      delivery.status === 'queued' && delivery.nextAttemptAt
        ? formatTimestamp(delivery.nextAttemptAt)
        : null,
    delivered_at: delivery.deliveredAt ? formatTimestamp(delivery.deliveredAt) : null,
    created_at: formatTimestamp(delivery.createdAt),
    attempt_log: attempts.map(toAttemptOutput),
  };
}

function toAttemptOutput(attempt: WebhookDeliveryAttempt): WebhookAttemptDto {
  return {
    attempted_at: formatTimestamp(attempt.attemptedAt),
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    response_body: attempt.responseBody,
  };
}
