import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { renderDocumentPdf } from '../documents/pdf/document-pdf.renderer';
import { renderFacturxPdf } from '../documents/pdf/facturx-pdf.renderer';
import { DocumentView } from '../documents/document-view';
import { einvoiceXml, xmlFormatOf } from '../documents/einvoice/einvoice';
import type { Issuer } from '../document-vocabulary/issuer';
import { EventLog } from '../events/event-log';
import { Claimed, ClaimQueue } from '../jobs/claim-queue';
import { JobKind, JobRunner } from '../jobs/job-runner';
import { describeUnexpectedError } from '../logging/loggable-error';
import { composeDocumentMail, EinvoiceAttachment, fileNameOf } from './document-mail';
import { afterFailedAttempt, describeFailure } from './domain/retry-policy';
import { OutboxMessage } from './entities/outbox-message.entity';
import {
  DELIVERY_CONCURRENCY,
  MAIL_TRANSPORT,
  MailTransport,
  OutgoingMail,
} from './mail-transport';

/**
 * The longest one message may take to hand over, whatever the server does (it may trickle);
 * never more than half the lease, so that a live attempt ends well within its claim.
 */
const SEND_DEADLINE_MS = 60_000;
/** Pauses before writing `sent` again when the database refused it. */
const MARK_SENT_RETRY_PAUSES_MS = [100, 1_000];

/**
 * The e-mail kind of outbox work: renders each claimed message's PDF and hands the e-mail to
 * the transport. Then it marks the message sent, or schedules a retry with backoff, or fails
 * it once its attempts are spent; each outcome writes the document's `delivery_sent` or
 * `delivery_failed` event with it.
 *
 * At least once: the mark follows the server's answer immediately, but an instance that dies
 * between the two leaves a claim that is taken again when its lease ends, and the message is
 * sent a second time (with the same Message-ID).
 */
@Injectable()
export class MailJob implements JobKind<OutboxMessage>, OnModuleInit, OnApplicationShutdown {
  readonly name = 'mail';
  readonly concurrency = DELIVERY_CONCURRENCY;
  readonly queue: ClaimQueue<OutboxMessage>;
  private readonly logger = new Logger('Delivery');
  /** Whether the last attempt failed: warn once per outage. */
  private attemptsFailing = false;

  constructor(
    database: Database,
    private readonly runner: JobRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly events: EventLog,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
  ) {
    this.queue = new ClaimQueue(database, OutboxMessage);
  }

  get maxAttempts(): number {
    return this.config.mailMaxAttempts;
  }

  onModuleInit(): void {
    this.runner.register(this);
  }

  /** After the runner has stopped (module destroy), so no job still uses it. */
  onApplicationShutdown(): void {
    this.transport.close();
  }

  async run(message: Claimed<OutboxMessage>, cutOff: AbortSignal): Promise<void> {
    try {
      const mail = await this.compose(message);
      const deadline = AbortSignal.timeout(
        Math.min(SEND_DEADLINE_MS, this.config.outboxLeaseMs / 2),
      );
      await this.transport.send(mail, AbortSignal.any([cutOff, deadline]));
    } catch (error) {
      // Cut off by a stop: the runner gives the claim back, the attempt not counted.
      if (!cutOff.aborted) await this.recordFailure(message, error);
      return;
    }
    await this.recordSent(message);
  }

  /** Never the address: the log names the row, the document and the reason. */
  gaveUp(message: OutboxMessage, reason: string): void {
    this.logger.warn(
      {
        outbox: message.id,
        kind: message.kind,
        documentId: message.documentId,
        attempts: message.attempts,
        reason,
      },
      `Delivery of ${message.kind} ${message.documentId} failed for good after ${message.attempts} attempt(s): ${reason}`,
    );
  }

  private async compose(message: OutboxMessage): Promise<OutgoingMail> {
    const view = JSON.parse(message.documentView) as DocumentView;
    const company = this.config.company;
    const einvoice = einvoiceAttachment(view, message, company);
    // Factur-X is the PDF itself, carrying its XML; the other formats go beside the PDF.
    const pdf =
      einvoice?.format === 'facturx'
        ? await renderFacturxPdf(view, company, einvoice.xml)
        : await renderDocumentPdf(view, company);
    const envelope = {
      from: this.config.mailFrom,
      to: message.recipient,
      messageId: messageIdOf(message, this.config.mailFrom),
    };
    return {
      options: await composeDocumentMail(
        view,
        company,
        pdf,
        envelope,
        einvoice?.format === 'facturx' ? null : einvoice,
      ),
      fileStem: fileStemOf(message, view.number),
    };
  }

  /** Written right after the server's answer: the at-least-once window is this one write. */
  private async recordSent(message: Claimed<OutboxMessage>): Promise<void> {
    if (this.attemptsFailing) this.logger.log('Deliveries succeed again');
    this.attemptsFailing = false;
    let lastError: unknown;
    for (const pauseMs of [0, ...MARK_SENT_RETRY_PAUSES_MS]) {
      if (pauseMs > 0) await delay(pauseMs);
      try {
        await this.queue.finish(message, { status: 'sent', sentAt: this.clock.now() }, () =>
          this.recordEvent(message, 'delivery_sent'),
        );
        return;
      } catch (error) {
        lastError = error;
      }
    }
    this.logger.error(
      { outbox: message.id, error: describeUnexpectedError(lastError) },
      'Delivered, but the outbox could not record it: it is sent again when its lease ends',
    );
  }

  private async recordFailure(message: Claimed<OutboxMessage>, error: unknown): Promise<void> {
    const failure = describeFailure(error);
    if (!this.attemptsFailing) {
      this.logger.warn(
        { outbox: message.id, reason: failure.reason },
        'A delivery failed; failed messages are retried with backoff',
      );
    }
    this.attemptsFailing = true;
    const outcome = afterFailedAttempt(failure, message.attempts, {
      maxAttempts: this.config.mailMaxAttempts,
      baseMs: this.config.mailRetryBaseMs,
    });
    if (outcome.retry) {
      const at = new Date(Date.now() + outcome.delayMs);
      await this.queue.retryLater(message, failure.reason, at);
    } else if (
      await this.queue.fail(message, failure.reason, () =>
        this.recordEvent(message, 'delivery_failed'),
      )
    ) {
      this.gaveUp(message, failure.reason);
    }
  }

  private recordEvent(
    message: OutboxMessage,
    outcome: 'delivery_sent' | 'delivery_failed',
  ): Promise<unknown> {
    return this.events.record({
      type: `${message.kind}.${outcome}`,
      object: message.kind,
      id: message.documentId,
      before: null,
    });
  }
}

/**
 * The same for every attempt at one outbox row, so a receiver can recognise a message delivered
 * twice (the at-least-once case); the creation instant keeps ids of different databases apart.
 */
function messageIdOf(message: OutboxMessage, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox.${message.id}.${message.createdAt.getTime()}@${domain}>`;
}

/** `20260301T120000Z-invoice-INV-1-42`: sorts by time, unique per row, safe on any disk. */
function fileStemOf(message: OutboxMessage, number: string): string {
  const created = message.createdAt.toISOString().replace(/[-:]|\.\d{3}/g, '');
  const safeNumber = fileNameOf(number)
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .slice(0, 80);
  return `${created}-${message.kind}-${safeNumber}-${message.id}`;
}

/**
 * The e-invoice the message carries (docs/einvoices.md), made again from the view it was sent
 * with; null for none. The send checked that it can be made; should the COMPANY_* settings have
 * lost a piece since, the attempt fails as `EINVOICE_INCOMPLETE` and is retried like any other.
 */
function einvoiceAttachment(
  view: DocumentView,
  message: OutboxMessage,
  seller: Issuer,
): EinvoiceAttachment | null {
  if (message.einvoiceFormat === '') return null;
  const result = einvoiceXml(xmlFormatOf(message.einvoiceFormat), view, {
    seller,
    buyerAddress: message.einvoiceAddress,
  });
  if ('problems' in result) {
    throw Object.assign(new Error('The e-invoice can no longer be made'), {
      code: 'EINVOICE_INCOMPLETE',
    });
  }
  return { format: message.einvoiceFormat, xml: result.xml };
}
