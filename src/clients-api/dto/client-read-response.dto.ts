import { ApiProperty } from '@nestjs/swagger';
import { ClientDto } from '../../clients/dto/client-response.dto';
import { EstimateWithTimestampsDto } from '../../estimates/dto/estimate-response.dto';
import { InvoiceWithTimestampsDto } from '../../invoices/dto/invoice-response.dto';

/** `GET /client/{id}`: the client with its live invoices and estimates. */
export class ClientReadResponseDto {
  @ApiProperty({ type: [ClientDto], description: 'The one client' })
  data: ClientDto[];

  @ApiProperty({ type: [InvoiceWithTimestampsDto], description: 'Its live invoices, oldest first' })
  invoices: InvoiceWithTimestampsDto[];

  @ApiProperty({
    type: [EstimateWithTimestampsDto],
    description: 'Its live estimates, oldest first',
  })
  estimates: EstimateWithTimestampsDto[];
}
