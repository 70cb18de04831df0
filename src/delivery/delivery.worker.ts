import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { renderDocumentPdf } from '../documents/pdf/document-pdf.renderer';
import { DocumentView } from '../documents/pdf/document-view';
import { describeUnexpectedError } from '../logging/loggable-error';
import { composeDocumentMail, fileNameOf } from './document-mail';
import { afterFailedAttempt, describeFailure } from './domain/retry-policy';
import { OutboxMessage } from './entities/outbox-message.entity';
import {
  DELIVERY_CONCURRENCY,
  MAIL_TRANSPORT,
  MailTransport,
  OutgoingMail,
} from './mail-transport';
import { ClaimedMessage, OutboxQueue } from './outbox-queue';

/** Rows claimed at once: a few rounds of the concurrency, all well within one lease. */
const BATCH_SIZE = DELIVERY_CONCURRENCY * 4;
/** The longest one message may take to hand over, whatever the server does (it may trickle). */
const SEND_DEADLINE_MS = 60_000;
/** On stop, how long messages already being sent may take to finish. */
const STOP_WAIT_MS = 3_000;
/** Pauses before writing `sent` again when the database refused it. */
const MARK_SENT_RETRY_PAUSES_MS = [100, 1_000];

/**
 * Delivers the outbox: every OUTBOX_POLL_MS (at once again after finding work) it claims the due
 * messages, renders each PDF, and hands each e-mail to the transport, a few at a time, outside
 * any transaction. Then it marks the message sent, or schedules a retry with backoff, or fails
 * it once its attempts are spent.
 *
 * At least once: the mark follows the server's answer immediately, but an instance that dies
 * between the two leaves a claim that is taken again when its lease ends, and the message is
 * sent a second time (with the same Message-ID).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Delivery');
  /** Aborted when a stop has waited long enough: the sends still running are cut off. */
  private readonly cutOff = new AbortController();
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private cycle: Promise<void> | undefined;
  /** Whether the last claim failed / the last attempt failed: warn once per outage. */
  private claimsFailing = false;
  private attemptsFailing = false;

  constructor(
    private readonly queue: OutboxQueue,
    private readonly config: AppConfig,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.outboxPollMs === 0) {
      this.logger.log('OUTBOX_POLL_MS=0: this instance delivers nothing; another one must');
      return;
    }
    this.schedule(this.config.outboxPollMs);
  }

  /**
   * Stops claiming at once. Messages being sent get a few seconds to finish; then their sends
   * are cut off and they go back to the queue with the attempt not counted, as do claimed
   * messages not yet begun. Runs before the database closes.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const cycle = this.cycle;
    const waitMs = Math.min(STOP_WAIT_MS, this.config.shutdownTimeoutMs / 5);
    if (cycle && !(await settlesWithin(cycle, waitMs))) {
      this.cutOff.abort();
      await settlesWithin(cycle, waitMs);
    }
    this.transport.close();
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.cycle = this.runCycle();
    }, delayMs);
    // The poll alone never keeps the process alive.
    this.timer.unref();
  }

  private async runCycle(): Promise<void> {
    let found = 0;
    try {
      found = await this.deliverDue();
      if (this.claimsFailing) this.logger.log('The outbox can be read again');
      this.claimsFailing = false;
    } catch (error) {
      if (!this.claimsFailing) {
        this.logger.warn(
          { error: describeUnexpectedError(error) },
          'Cannot claim messages from the outbox; trying again at every poll',
        );
      }
      this.claimsFailing = true;
    }
    this.cycle = undefined;
    this.schedule(found > 0 ? 0 : this.config.outboxPollMs);
  }

  /** One claim, delivered with bounded concurrency; answers how many rows it took. */
  private async deliverDue(): Promise<number> {
    const { claimed, exhausted } = await this.queue.claim(BATCH_SIZE, this.config.mailMaxAttempts);
    for (const message of exhausted) this.warnGaveUp(message, 'lease expired');
    const waiting = [...claimed];
    const next = () => (this.stopping ? undefined : waiting.shift());
    const lane = async () => {
      for (let message = next(); message; message = next()) await this.deliver(message);
    };
    await Promise.all(Array.from({ length: DELIVERY_CONCURRENCY }, lane));
    // Claimed but not begun before a stop: back to the queue, for another instance or a restart.
    for (const message of waiting) await this.record(() => this.queue.release(message), message);
    return claimed.length + exhausted.length;
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    try {
      const mail = await this.compose(message);
      const deadline = AbortSignal.timeout(SEND_DEADLINE_MS);
      await this.transport.send(mail, AbortSignal.any([this.cutOff.signal, deadline]));
    } catch (error) {
      await this.recordFailure(message, error);
      return;
    }
    await this.recordSent(message);
  }

  private async compose(message: ClaimedMessage): Promise<OutgoingMail> {
    const view = JSON.parse(message.documentView) as DocumentView;
    const company = this.config.company;
    const pdf = await renderDocumentPdf(view, company);
    const envelope = {
      from: this.config.mailFrom,
      to: message.recipient,
      messageId: messageIdOf(message, this.config.mailFrom),
    };
    return {
      options: composeDocumentMail(view, company, pdf, envelope),
      fileStem: fileStemOf(message, view.number),
    };
  }

  /** Written right after the server's answer: the at-least-once window is this one write. */
  private async recordSent(message: ClaimedMessage): Promise<void> {
    if (this.attemptsFailing) this.logger.log('Deliveries succeed again');
    this.attemptsFailing = false;
    let lastError: unknown;
    for (const pauseMs of [0, ...MARK_SENT_RETRY_PAUSES_MS]) {
      if (pauseMs > 0) await delay(pauseMs);
      try {
        await this.queue.markSent(message);
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

  private async recordFailure(message: ClaimedMessage, error: unknown): Promise<void> {
    if (this.cutOff.signal.aborted) {
      await this.record(() => this.queue.release(message), message);
      return;
    }
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
      await this.record(() => this.queue.retryLater(message, failure.reason, at), message);
    } else if (await this.record(() => this.queue.fail(message, failure.reason), message)) {
      this.warnGaveUp(message, failure.reason);
    }
  }

  /**
   * An outcome written to the outbox; false when the claim was no longer this worker's or the
   * write failed (the row then waits for its lease to end, and is tried again).
   */
  private async record(write: () => Promise<boolean>, message: OutboxMessage): Promise<boolean> {
    try {
      return await write();
    } catch (error) {
      this.logger.error(
        { outbox: message.id, error: describeUnexpectedError(error) },
        'Could not record a delivery outcome in the outbox; the message is retried when its lease ends',
      );
      return false;
    }
  }

  /** Never the address: the log names the row, the document and the reason. */
  private warnGaveUp(message: OutboxMessage, reason: string): void {
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

/** Whether `work` settles within `ms`; it is not cancelled either way. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = new AbortController();
  const settled = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    delay(ms, false, { signal: timeout.signal }).catch(() => false),
  ]);
  timeout.abort();
  return settled;
}
