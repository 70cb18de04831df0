import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { parseId } from '../common/input-rules';
import { Decimal, sum } from '../common/money/decimal';
import { formatMoney } from '../common/money/money';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { Database } from '../database/database';
import { EventLog } from '../events/event-log';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { refuseIfDraft } from '../documents/domain/draft-rules';
import { refuseIfVoid } from '../invoices/domain/invoice-update';
import {
  DEFAULT_PAYMENT_METHOD,
  LedgerEntryStatus,
  PaymentMethod,
  PaymentStatus,
} from '../invoices/domain/payment-status';
import { InvoiceWithTimestampsDto } from '../invoices/dto/invoice-response.dto';
import { InvoicePayment } from '../invoices/entities/invoice-payment.entity';
import { Invoice } from '../invoices/entities/invoice.entity';
import { InvoiceDetailRecord } from '../invoices/invoice-detail.query';
import { toListItem, toPaymentEntry, toRecordPart } from '../invoices/invoices.mapper';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { InvoicesService } from '../invoices/invoices.service';
import {
  cashHeldOf,
  checkMinorDigits,
  credit,
  LedgerMove,
  recordPayment,
  refund,
} from './domain/ledger';
import { InvoiceChangeResponseDto, RefundResponseDto } from './dto/ledger-response.dto';
import { RecordPaymentDto } from './dto/record-payment.dto';
import { RefundDto } from './dto/refund.dto';
import { VoidInvoiceDto } from './dto/void-invoice.dto';
import { LedgerRepository } from './ledger.repository';

/** The invoice a credit note is drafted against, as the ledger holds it under its row lock. */
export type CreditedInvoice = Readonly<
  Pick<
    Invoice,
    | 'id'
    | 'invoiceNo'
    | 'clientId'
    | 'currency'
    | 'taxRate'
    | 'taxName'
    | 'pricesIncludeTax'
    | 'issueDate'
  >
>;

/** A credit note as written (and whatever else its writer answers with it). */
export interface IssuedCredit {
  /** What its ledger entries record of it; they are recorded at its `createdAt`. */
  creditNote: { id: number; issueDate: string; reason: string; createdAt: Date };
}

/** What a credit note brings to `credit`: how it is drafted, and how it is written. */
export interface CreditNoteIssue<D extends { total: Decimal }, W extends IssuedCredit> {
  /** Refund first the part of the credit above the outstanding balance. */
  refund: boolean;
  /** Drafts the credit note against the locked invoice; its total is what it credits. */
  draft(invoice: CreditedInvoice): Promise<D>;
  /** Writes the credit note; `refunded` is the part of its total paid back as money. */
  write(draft: D, refunded: Decimal): Promise<W>;
}

/** What each ledger entry of a move records beside its status and amount. */
interface LedgerEntryDetails {
  method: PaymentMethod;
  date: string;
  reason: string;
  creditNoteId: number | null;
  /** When it is recorded: the entries' created_at and the invoice's updated_at. */
  at: Date;
}

/** The reference of a ledger entry: unique, and its kind readable at a glance. */
const REFERENCE_PREFIXES: Record<LedgerEntryStatus, string> = {
  Completed: 'PAY',
  Refunded: 'RFD',
  Credited: 'CRD',
};

/**
 * The invoice's money moves (docs/corrections.md): payments, refunds, credits, void, and the
 * paid / not-paid flag. Each move is one transaction that locks the invoice row first, so
 * concurrent moves on one invoice queue up behind each other and each sees the ledger the
 * previous one left (on SQLite: the write queue); the rules are in domain/ledger.ts, and the
 * move's event is written in the same unit of work.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly database: Database,
    private readonly ledger: LedgerRepository,
    private readonly invoiceRows: InvoicesRepository,
    private readonly invoices: InvoicesService,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  /** Money received, within the outstanding balance; Paid once nothing is outstanding. */
  recordPayment(input: RecordPaymentDto): Promise<MessageResponseDto> {
    return this.database.transaction(async () => {
      const { invoice } = await this.moveCash(input.id, 'invoice.payment_recorded', {
        amount: input.amount_paid,
        field: 'amount_paid',
        rule: recordPayment,
        method: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
        date: input.payment_date,
        reason: '',
      });
      const amount = formatMoney(input.amount_paid, invoice.currency);
      return {
        message: `Payment of ${amount} ${invoice.currency} recorded for invoice ${invoice.invoiceNo}`,
      };
    });
  }

  /** Money given back, within the cash held; a balance reopened makes the invoice Not Paid. */
  refund(input: RefundDto): Promise<RefundResponseDto> {
    return this.database.transaction(async () => {
      const { invoice, entries } = await this.moveCash(input.id, 'invoice.refunded', {
        amount: input.amount,
        field: 'amount',
        rule: refund,
        method: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
        date: input.refund_date,
        reason: input.reason ?? '',
      });
      const [entry] = entries;
      const amount = formatMoney(input.amount, invoice.currency);
      return {
        message: `Refund of ${amount} ${invoice.currency} recorded for invoice ${invoice.invoiceNo}`,
        invoice: [this.output(invoice)],
        entry: toPaymentEntry(entry, invoice.currency),
      };
    });
  }

  /**
   * A credit note's one call: issues it and settles the invoice with it, in one transaction.
   * The invoice named by `invoiceParam` (an `invoice` parameter) is row-locked first, like a
   * payment; the note is drafted against it, the credit checked (domain/ledger.ts, credit),
   * the note written, then its entries (a Refunded one first for the part above the
   * outstanding balance, with `refund`) and the `invoice.credited` event. Answers the note as
   * written and the invoice as lists answer it.
   */
  credit<D extends { total: Decimal }, W extends IssuedCredit>(
    invoiceParam: string,
    issue: CreditNoteIssue<D, W>,
  ): Promise<{ issued: W; invoice: InvoiceWithTimestampsDto }> {
    return this.database.transaction(async () => {
      const invoice = await this.creditableInvoice(invoiceParam);
      const before = this.snapshotOf(invoice);
      const draft = await issue.draft(invoice);
      const move = credit(invoice, draft.total, issue.refund);
      const refunded = sum(
        move.entries.filter((entry) => entry.status === 'Refunded').map((entry) => entry.amount),
      );
      const issued = await issue.write(draft, refunded);
      const { creditNote } = issued;
      await this.applyMove(invoice, move, {
        method: DEFAULT_PAYMENT_METHOD,
        date: creditNote.issueDate,
        reason: creditNote.reason,
        creditNoteId: creditNote.id,
        at: creditNote.createdAt,
      });
      await this.events.record({
        type: 'invoice.credited',
        object: 'invoice',
        id: invoice.id,
        before,
      });
      return { issued, invoice: this.output(invoice) };
    });
  }

  /**
   * Void: only while no cash is held (refund it first). The invoice keeps its number and
   * stays readable and listed; every later change but archiving answers 409.
   */
  void(id: number, input: VoidInvoiceDto): Promise<InvoiceChangeResponseDto> {
    return this.database.transaction(async () => {
      const detail = await this.changeableDetail(id);
      const invoice = detail.document;
      const cashHeld = cashHeldOf(invoice);
      if (cashHeld.gt(0)) {
        throw new DomainException(
          'INVOICE_HOLDS_CASH',
          `Invoice ${invoice.invoiceNo} holds ${formatMoney(cashHeld, invoice.currency)} ${invoice.currency} received; refund it before voiding`,
        );
      }
      const before = this.snapshotOf(invoice);
      const fields = { voidedAt: this.clock.now(), voidReason: input.reason ?? '' };
      Object.assign(invoice, fields, { updatedAt: fields.voidedAt });
      await this.ledger.markVoid(id, { ...fields, updatedAt: fields.voidedAt });
      const after = await this.invoices.answer(detail);
      await this.events.record({ type: 'invoice.voided', object: 'invoice', id, before, after });
      return {
        message: `Invoice ${invoice.invoiceNo} voided`,
        invoice: [this.output(invoice)],
      };
    });
  }

  /** `paid` / `not-paid`: the flag only; no payment is added or removed. */
  setPaymentStatus(id: number, paymentStatus: PaymentStatus): Promise<MessageResponseDto> {
    return this.database.transaction(async () => {
      const detail = await this.changeableDetail(id);
      const invoice = detail.document;
      const before = this.snapshotOf(invoice);
      const fields = { paymentStatus, updatedAt: this.clock.now() };
      await this.ledger.writePaymentStatus(id, fields);
      Object.assign(invoice, fields);
      await this.events.record({
        type: paymentStatus === 'Paid' ? 'invoice.marked_paid' : 'invoice.marked_not_paid',
        object: 'invoice',
        id,
        before,
        after: await this.invoices.answer(detail),
      });
      return { message: `Invoice ${invoice.invoiceNo} marked as ${paymentStatus.toLowerCase()}` };
    });
  }

  /**
   * A payment or a refund, in the caller's transaction: the invoice locked and read whole in
   * one statement, the amount checked against its currency and the move's rule, the entry
   * appended, and the event, whose record is that read with the new entry and sums (nothing is
   * read again after the change).
   */
  private async moveCash(
    idText: string,
    type: 'invoice.payment_recorded' | 'invoice.refunded',
    move: Omit<LedgerEntryDetails, 'creditNoteId' | 'at'> & {
      amount: Decimal;
      /** The parameter that names the amount, for a 422. */
      field: string;
      rule: (ledger: Invoice, amount: Decimal) => LedgerMove;
    },
  ): Promise<{ invoice: Invoice; entries: InvoicePayment[] }> {
    const detail = await this.changeableDetail(DomainException.idOrNotFound('Invoice', idText));
    const invoice = detail.document;
    checkMinorDigits(move.amount, invoice.currency, move.field);
    const before = this.snapshotOf(invoice);
    const entries = await this.applyMove(invoice, move.rule(invoice, move.amount), {
      method: move.method,
      date: move.date,
      reason: move.reason,
      creditNoteId: null,
      at: this.clock.now(),
    });
    await this.events.record({
      type,
      object: 'invoice',
      id: invoice.id,
      before,
      after: await this.invoices.answer({ ...detail, payments: [...detail.payments, ...entries] }),
    });
    return { invoice, entries };
  }

  /**
   * Appends the move's entries to the invoice's ledger and writes its sums, on an invoice read
   * with its row lock. Answers the entries as written.
   */
  private async applyMove(
    invoice: Invoice,
    move: LedgerMove,
    details: LedgerEntryDetails,
  ): Promise<InvoicePayment[]> {
    const written: InvoicePayment[] = [];
    for (const entry of move.entries) {
      written.push(
        await withFreshCode(
          () => `${REFERENCE_PREFIXES[entry.status]}-${generateShortCode()}${generateShortCode()}`,
          (reference) =>
            this.ledger.insertEntry({
              invoiceId: invoice.id,
              reference,
              status: entry.status,
              amount: entry.amount,
              method: details.method,
              paymentDate: details.date,
              reason: details.reason,
              creditNoteId: details.creditNoteId,
              createdAt: details.at,
            }),
          (error) => this.ledger.referenceTaken(error),
        ),
      );
    }
    await this.ledger.writeSums(invoice.id, { ...move.after, updatedAt: details.at });
    Object.assign(invoice, move.after, { updatedAt: details.at });
    return written;
  }

  /**
   * The `before` of an event for a move (it changes the invoice's own fields only): taken from
   * the locked row, with no read.
   */
  private snapshotOf(invoice: Invoice): object {
    return toRecordPart(invoice, this.clock.today());
  }

  /** The invoice as lists answer it: what a move answers besides its message. */
  private output(invoice: Invoice): InvoiceWithTimestampsDto {
    return toListItem(invoice, this.clock.today());
  }

  /**
   * A live invoice that is issued and not void, locked and read whole: else 404, or 409 when a
   * draft or void.
   */
  private async changeableDetail(id: number): Promise<InvoiceDetailRecord> {
    const detail = await this.ledger.lockDetail(id);
    if (!detail) throw DomainException.notFound('Invoice', String(id));
    refuseIfDraft('invoice', detail.document, 'paid, refunded, credited, voided or marked');
    refuseIfVoid(detail.document);
    return detail;
  }

  /**
   * The live invoice a credit note's `invoice` parameter names, row-locked: 422 naming
   * `invoice` when there is none, 409 when a draft or void.
   */
  private async creditableInvoice(idText: string): Promise<Invoice> {
    const id = parseId(idText);
    const invoice = id === null ? null : await this.invoiceRows.findLive(id, { forUpdate: true });
    if (!invoice) {
      throw new DomainException('UNKNOWN_INVOICE', `Invoice ${idText} does not exist`, {
        invoice: [`invoice ${idText} does not exist or is archived`],
      });
    }
    refuseIfDraft('invoice', invoice, 'credited');
    refuseIfVoid(invoice);
    return invoice;
  }
}
