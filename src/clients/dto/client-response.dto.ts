import { ApiProperty } from '@nestjs/swagger';
import { EINVOICE_FORMATS } from '../../common/einvoice-codes';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import {
  IdProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';

/** A client in `GET /client/all`: no updated_at. */
export class ClientListItemDto {
  @IdProperty()
  id: string;

  @TextProperty('Full name of the client')
  names: string;

  @TextProperty('E-mail address; empty when not given')
  email: string;

  @TextProperty('Empty when not given')
  phone: string;

  @TextProperty('Empty when not given')
  address: string;

  @TextProperty('Tax or VAT id; empty when not given')
  tax_id: string;

  @ApiProperty({
    type: 'string',
    pattern: '^([A-Z]{2})?$',
    description: 'ISO 3166-1 alpha-2 code, upper case; empty when not given',
  })
  country: string;

  @ApiProperty({
    type: 'string',
    pattern: '^([a-z]{2})?$',
    description: 'ISO 639-1 code, lower case; empty when not given',
  })
  language: string;

  @TextProperty(
    'Electronic address for e-invoices, scheme:identifier (EAS scheme as listed); empty when not given',
  )
  einvoice_address: string;

  @ApiProperty({
    type: 'string',
    enum: ['', ...EINVOICE_FORMATS],
    description: 'The e-invoice format sent with its documents; empty when none',
  })
  einvoice_format: string;

  @TextProperty('BT-10 buyer reference its invoices take by default; empty when not given')
  buyer_reference: string;

  @TimestampProperty()
  created_at: string;
}

/** A client as read, added and updated. */
export class ClientDto extends ClientListItemDto {
  @TimestampProperty('UTC, YYYY-MM-DD HH:MM:SS; changes on every write to the record')
  updated_at: string;
}

/** `GET /client/all`. */
export class ClientListResponseDto {
  @ApiProperty({ type: [ClientListItemDto], description: 'Live clients, oldest first' })
  data: ClientListItemDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `POST /client/add` and `PUT /client/{id}`. */
export class ClientWriteResponseDto {
  @ApiProperty({ type: [ClientDto], description: 'The one client' })
  data: ClientDto[];
}
