import { ClientsAndExpenses1763800000000 } from './1763800000000-clients-and-expenses';

/** Applied in this order; a new migration is appended, never inserted. */
export const SQLITE_MIGRATIONS = [ClientsAndExpenses1763800000000];
