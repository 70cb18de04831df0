import { TextProperty, TimestampProperty } from '../../openapi/schema-property.decorator';

/** One send of an invoice or estimate, oldest first. */
export class SendLogEntryDto {
  @TextProperty('The address it was sent to')
  email: string;

  @TimestampProperty('When it was sent: UTC, YYYY-MM-DD HH:MM:SS')
  date: string;
}
