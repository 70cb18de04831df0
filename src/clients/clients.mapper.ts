import { formatTimestamp } from '../common/clock';
import { Client } from './entities/client.entity';

export interface ClientListItem {
  id: string;
  names: string;
  email: string;
  phone: string;
  address: string;
  created_at: string;
}

export interface ClientDetail extends ClientListItem {
  updated_at: string;
}

/** `GET /client/all`: no updated_at. */
export function toListItem(client: Client): ClientListItem {
  return {
    id: String(client.id),
    names: client.names,
    email: client.email,
    phone: client.phone,
    address: client.address,
    created_at: formatTimestamp(client.createdAt),
  };
}

/** Read, add and update outputs. */
export function toDetail(client: Client): ClientDetail {
  return { ...toListItem(client), updated_at: formatTimestamp(client.updatedAt) };
}
