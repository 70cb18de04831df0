import { formatTimestamp } from '../common/clock';
import { ClientDto, ClientListItemDto } from './dto/client-response.dto';
import { Client } from './entities/client.entity';

/** `GET /client/all`: no updated_at. */
export function toListItem(client: Client): ClientListItemDto {
  return {
    id: String(client.id),
    names: client.names,
    email: client.email,
    phone: client.phone,
    address: client.address,
    tax_id: client.taxId,
    country: client.country,
    language: client.language,
    einvoice_address: client.einvoiceAddress,
    einvoice_format: client.einvoiceFormat,
    buyer_reference: client.buyerReference,
    created_at: formatTimestamp(client.createdAt),
  };
}

/** Read, add and update outputs. */
export function toDetail(client: Client): ClientDto {
  return { ...toListItem(client), updated_at: formatTimestamp(client.updatedAt) };
}
