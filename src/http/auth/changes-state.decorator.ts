import { SetMetadata } from '@nestjs/common';

export const CHANGES_STATE = 'invoicing:changes-state';

/**
 * A GET route that writes (`GET /invoice/paid/{id}` sets the payment status): a read-only API
 * key may not call it, although GET is otherwise a read.
 */
export const ChangesState = () => SetMetadata(CHANGES_STATE, true);
