import { DomainException } from '../../common/domain.exception';
import { DOCUMENT_NAMES, DocumentKind } from '../../document-vocabulary/document-kind';

/*
 * Drafts (docs/numbering.md): an invoice or an estimate added with `draft: true` has no number
 * (''), may be changed and deleted freely, and takes part in nothing else (payments, refunds,
 * credit notes, void, sends, conversion, reports, reminders) until it is issued.
 */

interface Drafted {
  id: number;
  draft: boolean;
}

function label(kind: DocumentKind): string {
  const name = DOCUMENT_NAMES[kind];
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** What a draft may not do yet: 409 until it is issued. */
export function refuseIfDraft(kind: DocumentKind, document: Drafted, action: string): void {
  if (document.draft) {
    throw new DomainException(
      'DOCUMENT_DRAFT',
      `${label(kind)} ${document.id} is a draft: issue it before it can be ${action}`,
    );
  }
}

/** Issuing is for drafts only: 409 for a document that has its number. */
export function refuseUnlessDraft(kind: DocumentKind, document: Drafted): void {
  if (!document.draft) {
    throw new DomainException('NOT_A_DRAFT', `${label(kind)} ${document.id} is not a draft`);
  }
}

/** A draft has no number: one given with it answers 422 naming the number parameter. */
export function refuseNumberOfDraft(numberParam: string, given: string | undefined): void {
  if (given !== undefined) {
    throw DomainException.invalidField(
      numberParam,
      `${numberParam} cannot be given to a draft: it takes its number when it is issued`,
    );
  }
}

/**
 * The due date of a draft issued on `issueDate`: its payment term (due date − issue date, in
 * days) kept from the new issue date.
 */
export function dueDateOnIssue(
  draft: { issueDate: string; dueDate: string },
  issueDate: string,
): string {
  const day = 86_400_000;
  const term = Math.round((Date.parse(draft.dueDate) - Date.parse(draft.issueDate)) / day);
  return new Date(Date.parse(issueDate) + term * day).toISOString().slice(0, 10);
}

/** A draft takes no payment, and is not marked paid either: 422 naming payment_status. */
export function refusePaidDraft(paymentStatus: string): void {
  if (paymentStatus === 'Paid') {
    throw DomainException.invalidField(
      'payment_status',
      'payment_status must be Not Paid for a draft: a draft takes no payment',
    );
  }
}
