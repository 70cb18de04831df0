import { Injectable, Logger } from '@nestjs/common';
import { ClientsService } from '../clients/clients.service';
import { Clock, shiftDate } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { ListQueryDto } from '../common/list-query.dto';
import { Database } from '../database/database';
import { ListAnswer, StreamedList } from '../database/find-list';
import { DocumentDrafts } from '../document-operations/document-drafts';
import { DocumentDraft } from '../documents/domain/document-draft';
import { lineInputOf } from '../documents/domain/document-totals';
import { discountTerms } from '../documents/documents.mapper';
import { DocumentInputDto } from '../documents/dto/document-input.dto';
import { EventLog } from '../events/event-log';
import { EventType } from '../events/event-types';
import { InvoicesService } from '../invoices/invoices.service';
import { MadeInvoice } from '../invoices/invoices.repository';
import { DeletedResponseDto } from '../openapi/dto/deleted-response.dto';
import { Cadence, periodEnd, ScheduleEnd } from './domain/schedule';
import { linesFromText, linesToText } from './domain/schedule-lines';
import {
  afterInvoice,
  isDue,
  paused,
  rescheduled,
  resumed,
  ScheduleState,
  startedState,
} from './domain/schedule-state';
import {
  CreateRecurringInvoiceDto,
  UpdateRecurringInvoiceDto,
} from './dto/recurring-invoice-input.dto';
import {
  RecurringInvoiceDto,
  RecurringInvoiceListResponseDto,
  RecurringInvoiceResponseDto,
} from './dto/recurring-invoice-response.dto';
import { RecurringInvoice } from './entities/recurring-invoice.entity';
import { toRecurringInvoice } from './recurring-invoices.mapper';
import { RecurringInvoicesRepository } from './recurring-invoices.repository';

/** What an invoice of the schedule holds, as the drafting rules worked it out. */
type Template = Pick<
  RecurringInvoice,
  | 'clientId'
  | 'description'
  | 'currency'
  | 'taxRate'
  | 'taxName'
  | 'discountPercent'
  | 'discountAmount'
  | 'pricesIncludeTax'
  | 'note'
  | 'items'
  | 'subTotal'
  | 'taxAmount'
  | 'total'
>;

/** The content parameters of add and update, as the drafting rules take them. */
type Content = Omit<DocumentInputDto, 'items' | 'draft'> & {
  items?: DocumentInputDto['items'];
};

const DEFAULT_DUE_DAYS = 30;

/** What one look at a due schedule did: made its period's invoice, and whether more are due. */
export interface PeriodOutcome {
  made: boolean;
  moreDue: boolean;
}

const NOTHING_MADE: PeriodOutcome = { made: false, moreDue: false };

/**
 * How many of its latest invoices an answer lists: every answer (and every event's `data`)
 * stays small however long the schedule runs; `GET /invoice/all?recurring_invoice=` lists all.
 */
export const INVOICES_SHOWN = 12;

/**
 * Recurring invoices (docs/recurring.md): schedules through the API, and the making of each
 * period's invoice. A period is made in one transaction: the schedule's row locked (passed over
 * when another instance holds it), the invoice written with its number from the series and the
 * (schedule, period) pair its unique index holds, the send queued in the outbox when the
 * schedule sends, the schedule moved to its next period, and the events. A crash anywhere
 * rolls all of it back; whichever instance comes next makes the period once.
 */
@Injectable()
export class RecurringInvoicesService {
  private readonly logger = new Logger('RecurringInvoices');

  constructor(
    private readonly database: Database,
    private readonly schedules: RecurringInvoicesRepository,
    private readonly drafts: DocumentDrafts,
    private readonly invoices: InvoicesService,
    private readonly clients: ClientsService,
    private readonly events: EventLog,
    private readonly clock: Clock,
  ) {
    events.registerReader('recurring_invoice', (id) => this.get(id));
  }

  async list(query: ListQueryDto): Promise<ListAnswer<RecurringInvoiceListResponseDto>> {
    const result = await this.schedules.list(query);
    if (!(result instanceof StreamedList)) {
      return { data: await this.answers(result.rows), meta: result.meta };
    }
    return this.streamAnswers(result);
  }

  async get(id: number): Promise<RecurringInvoiceResponseDto> {
    const schedule = await this.database.read(() => this.schedules.findLive(id));
    if (!schedule) throw DomainException.notFound('Recurring invoice', String(id));
    return { recurring_invoice: await this.answers([schedule]) };
  }

  create(input: CreateRecurringInvoiceDto): Promise<RecurringInvoiceResponseDto> {
    return this.database.transaction(async () => {
      const draft = await this.drafts.draft(
        { ...content(input), items: input.items, issue_date: input.start_date },
        null,
      );
      const cadence: Cadence = {
        startDate: input.start_date,
        interval: input.interval,
        intervalCount: input.interval_count ?? 1,
      };
      const end: ScheduleEnd = { endDate: input.end_date ?? null, count: input.count ?? null };
      const now = this.clock.now();
      const schedule = await this.schedules.insert({
        ...templateOf(draft),
        ...cadence,
        ...end,
        ...startedState({ ...cadence, ...end }),
        dueDays: input.due_days ?? DEFAULT_DUE_DAYS,
        autoSend: input.auto_send === 'True',
        email: input.email ?? '',
        draft: input.draft === 'True',
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      const answer = { recurring_invoice: [toRecurringInvoice(schedule, [])] };
      await this.record('recurring_invoice.created', schedule.id, null, answer);
      return answer;
    });
  }

  /**
   * Changes apply from the next period: the lines and terms to every invoice made from now on,
   * a new start date, interval or end to the periods after the last one billed.
   */
  update(id: number, input: UpdateRecurringInvoiceDto): Promise<RecurringInvoiceResponseDto> {
    return this.database.transaction(async () => {
      const schedule = await this.liveSchedule(id);
      const before = await this.events.snapshot('recurring_invoice', id);
      Object.assign(schedule, templateOf(await this.redraft(schedule, input)));
      const cadenceChanged =
        input.start_date !== undefined ||
        input.interval !== undefined ||
        input.interval_count !== undefined ||
        input.end_date !== undefined ||
        input.count !== undefined;
      if (input.start_date) schedule.startDate = input.start_date;
      if (input.interval) schedule.interval = input.interval;
      if (input.interval_count) schedule.intervalCount = input.interval_count;
      if (input.end_date !== undefined) {
        schedule.endDate = input.end_date;
        if (input.end_date !== null) schedule.count = null;
      }
      if (input.count !== undefined) {
        schedule.count = input.count;
        if (input.count !== null) schedule.endDate = null;
      }
      refuseEndBeforeStart(schedule);
      if (cadenceChanged) Object.assign(schedule, rescheduled(schedule));
      // A parameter left out, or null where null removes nothing, keeps its value.
      if (input.due_days != null) schedule.dueDays = input.due_days;
      if (input.auto_send != null) schedule.autoSend = input.auto_send === 'True';
      if (input.email != null) schedule.email = input.email;
      if (input.draft != null) schedule.draft = input.draft === 'True';
      schedule.updatedAt = this.clock.now();
      await this.schedules.save(schedule);
      return this.record('recurring_invoice.updated', id, before, await this.get(id));
    });
  }

  /** No period is made from today until resumed (409 unless active). */
  pause(id: number): Promise<RecurringInvoiceResponseDto> {
    return this.move(id, 'recurring_invoice.paused', (schedule, today) => paused(schedule, today));
  }

  /**
   * Made active again today: the periods that fell while it was paused are skipped, not billed
   * (409 unless paused).
   */
  resume(id: number): Promise<RecurringInvoiceResponseDto> {
    return this.move(id, 'recurring_invoice.resumed', (schedule, today) =>
      resumed(schedule, today),
    );
  }

  /** DELETE ends the schedule and archives it; the invoices it made stay as they are. */
  archive(id: number): Promise<DeletedResponseDto> {
    return this.database.transaction(async () => {
      await this.liveSchedule(id);
      const before = await this.events.snapshot('recurring_invoice', id);
      const now = this.clock.now();
      await this.schedules.update(id, {
        status: 'ended',
        nextDate: null,
        pausedOn: null,
        skipFrom: null,
        skipUntil: null,
        updatedAt: now,
        deletedAt: now,
      });
      await this.events.record({
        type: 'recurring_invoice.deleted',
        object: 'recurring_invoice',
        id,
        before,
        after: before,
      });
      return { id: String(id) };
    });
  }

  /** Ids of the schedules with a period to bill today, the earliest first, up to `limit`. */
  due(limit: number): Promise<number[]> {
    const today = this.clock.today();
    return this.database.read(() => this.schedules.due(today, limit));
  }

  /**
   * Makes the invoice of the schedule's next period when it is due, and tells whether another
   * period is due after it (as after downtime: call again). Makes nothing when nothing is due,
   * or another instance holds the schedule or has made the period.
   */
  async makeNext(id: number): Promise<PeriodOutcome> {
    try {
      return await this.database.transaction(() => this.makeNextInTransaction(id));
    } catch (error) {
      if (!this.invoices.periodBilled(error)) throw error;
      // Only a second writer of the same period gets here (the row lock keeps instances apart).
      this.logger.warn({ schedule: id }, 'A recurring invoice period was billed already');
      return NOTHING_MADE;
    }
  }

  /**
   * One period, in the open transaction. The schedule's answers before and after (its events'
   * `before` and `data`) are worked out from the locked row and its latest invoices, read once.
   */
  private async makeNextInTransaction(id: number): Promise<PeriodOutcome> {
    const schedule = await this.schedules.claim(id);
    const today = this.clock.today();
    if (!schedule || !isDue(schedule, today) || schedule.nextDate === null) return NOTHING_MADE;
    const period = schedule.nextDate;
    const [shown] = await this.answers([schedule]);
    const before = { recurring_invoice: [shown] };
    let draft: DocumentDraft;
    try {
      draft = await this.drafts.copy(
        {
          ...storedContent(schedule),
          period_start: period,
          period_end: periodEnd(schedule, schedule.nextIndex),
          issue_date: period,
          due_date: shiftDate(period, schedule.dueDays),
          items: linesFromText(schedule.items).map(lineInputOf),
        },
        schedule.taxName,
      );
    } catch (error) {
      if (!(error instanceof DomainException && error.code === 'UNKNOWN_CLIENT')) throw error;
      // Its client was archived: no invoice can be made for it again.
      this.logger.warn({ schedule: id }, 'The client of a recurring invoice is archived: it ends');
      Object.assign(schedule, { status: 'ended', nextDate: null, updatedAt: this.clock.now() });
      await this.schedules.save(schedule);
      await this.events.record({
        type: 'recurring_invoice.ended',
        object: 'recurring_invoice',
        id,
        before,
        after: { recurring_invoice: [toRecurringInvoice(schedule, shown.invoices)] },
      });
      return NOTHING_MADE;
    }
    const invoice = await this.invoices.createFromDraft(draft, {
      invoiceNo: undefined,
      paymentStatus: 'Not Paid',
      draft: schedule.draft,
      recurring: { scheduleId: id, period },
    });
    if (schedule.autoSend && !schedule.draft) await this.send(schedule, invoice.id);
    Object.assign(schedule, afterInvoice(schedule), { updatedAt: this.clock.now() });
    await this.schedules.save(schedule);
    const made = { id: String(invoice.id), invoice_no: invoice.response.invoice[0].invoice_no };
    const invoices = [...shown.invoices, { ...made, issue_date: period }].slice(-INVOICES_SHOWN);
    await this.events.record({
      type: 'recurring_invoice.invoiced',
      object: 'recurring_invoice',
      id,
      before,
      after: { recurring_invoice: [toRecurringInvoice(schedule, invoices)] },
    });
    return { made: true, moreDue: isDue(schedule, today) };
  }

  /** Sends a new invoice to the schedule's address, or its client's (none: not sent). */
  private async send(schedule: RecurringInvoice, invoiceId: number): Promise<void> {
    let email = schedule.email;
    if (email === '') {
      const client = await this.clients.holdForDocument(schedule.clientId, {
        allowArchived: false,
      });
      email = client?.email ?? '';
    }
    if (email !== '') await this.invoices.send({ id: String(invoiceId), email });
  }

  /** Pause or resume: the schedule row-locked, moved, saved, with its event. */
  private move(
    id: number,
    type: EventType,
    next: (schedule: RecurringInvoice, today: string) => ScheduleState,
  ): Promise<RecurringInvoiceResponseDto> {
    return this.database.transaction(async () => {
      const schedule = await this.liveSchedule(id);
      const before = await this.events.snapshot('recurring_invoice', id);
      Object.assign(schedule, next(schedule, this.clock.today()), { updatedAt: this.clock.now() });
      await this.schedules.save(schedule);
      return this.record(type, id, before, await this.get(id));
    });
  }

  /**
   * The schedule's content with the update's parameters applied, drafted and checked as an
   * invoice's would be; new `items` are read as on add, else the kept lines are copied.
   */
  private redraft(
    schedule: RecurringInvoice,
    input: UpdateRecurringInvoiceDto,
  ): Promise<DocumentDraft> {
    const stored = storedContent(schedule);
    const discountGiven =
      input.discount_percent !== undefined || input.discount_amount !== undefined;
    const fields = {
      client: input.client ?? stored.client,
      description: input.description ?? stored.description,
      currency: input.currency ?? stored.currency,
      tax_rate: input.tax_rate ?? stored.tax_rate,
      note: input.note ?? stored.note,
      prices_include_tax: input.prices_include_tax ?? stored.prices_include_tax,
      discount_percent: discountGiven ? (input.discount_percent ?? null) : stored.discount_percent,
      discount_amount: discountGiven ? (input.discount_amount ?? null) : stored.discount_amount,
      issue_date: input.start_date ?? schedule.startDate,
    };
    if (input.items)
      return this.drafts.draft({ ...fields, items: input.items }, null, schedule.taxName);
    return this.drafts.copy(
      { ...fields, items: linesFromText(schedule.items).map(lineInputOf) },
      schedule.taxName,
    );
  }

  /** A live schedule, row-locked until the transaction ends, or 404. */
  private async liveSchedule(id: number): Promise<RecurringInvoice> {
    const schedule = await this.schedules.findLive(id, { forUpdate: true });
    if (!schedule) throw DomainException.notFound('Recurring invoice', String(id));
    return schedule;
  }

  /** Records the change with the schedule as read after it (`after`), and answers that. */
  private async record(
    type: EventType,
    id: number,
    before: object | null,
    after: RecurringInvoiceResponseDto,
  ): Promise<RecurringInvoiceResponseDto> {
    await this.events.record({ type, object: 'recurring_invoice', id, before, after });
    return after;
  }

  /** The schedules as answered, with the invoices each made: one statement for all of them. */
  private async answers(schedules: RecurringInvoice[]): Promise<RecurringInvoiceDto[]> {
    const made = await this.invoices.madeBySchedules(
      schedules.map((schedule) => schedule.id),
      INVOICES_SHOWN,
    );
    return schedules.map((schedule) =>
      toRecurringInvoice(schedule, (made.get(schedule.id) ?? []).map(toMadeInvoice)),
    );
  }

  /** A whole list, batch by batch, each batch's invoices read with it. */
  private async streamAnswers(
    result: StreamedList<RecurringInvoice>,
  ): Promise<StreamedList<RecurringInvoiceDto>> {
    const first = await this.answers(result.first);
    const rest = result.rest;
    if (rest === null) return new StreamedList(first, null);
    const answers = (batch: RecurringInvoice[]) => this.answers(batch);
    return new StreamedList(first, async function* () {
      for await (const batch of rest()) yield await answers(batch);
    });
  }
}

/** The add's content parameters, without the schedule's own. */
function content(input: CreateRecurringInvoiceDto): Content {
  return {
    client: input.client,
    description: input.description,
    currency: input.currency,
    tax_rate: input.tax_rate,
    note: input.note,
    discount_percent: input.discount_percent,
    discount_amount: input.discount_amount,
    prices_include_tax: input.prices_include_tax,
  };
}

/** The kept content as input to the drafting rules. */
function storedContent(schedule: RecurringInvoice) {
  return {
    client: String(schedule.clientId),
    description: schedule.description,
    currency: schedule.currency,
    tax_rate: schedule.taxRate,
    note: schedule.note,
    ...discountTerms(schedule),
  };
}

function templateOf(draft: DocumentDraft): Template {
  return {
    clientId: draft.clientId,
    description: draft.description,
    currency: draft.currency,
    taxRate: draft.taxRate,
    taxName: draft.taxName,
    discountPercent: draft.discountPercent,
    discountAmount: draft.discountAmount,
    pricesIncludeTax: draft.pricesIncludeTax,
    note: draft.note,
    items: linesToText(draft.lines),
    subTotal: draft.subTotal,
    taxAmount: draft.taxAmount,
    total: draft.total,
  };
}

/** An end date before the start date leaves no period: 422. */
function refuseEndBeforeStart(schedule: RecurringInvoice): void {
  if (schedule.endDate !== null && schedule.endDate < schedule.startDate) {
    throw new DomainException('VALIDATION_FAILED', 'end_date is before start_date', {
      end_date: ['end_date must not be before start_date'],
    });
  }
}

function toMadeInvoice(invoice: MadeInvoice) {
  return { id: String(invoice.id), invoice_no: invoice.invoiceNo, issue_date: invoice.issueDate };
}
