import { CreateClientDto } from './create-client.dto';

/** PUT takes the same parameters as add; an optional field left out keeps its value. */
export class UpdateClientDto extends CreateClientDto {}
