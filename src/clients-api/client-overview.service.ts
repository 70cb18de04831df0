import { Injectable } from '@nestjs/common';
import { EstimatesService } from '../estimates/estimates.service';
import { InvoicesService } from '../invoices/invoices.service';
import { ClientsService } from '../clients/clients.service';
import { ClientReadResponseDto } from './dto/client-read-response.dto';

/**
 * `GET /client/{id}`: the client with its live invoices and estimates, each asked of the
 * feature that owns it. Three statements, no transaction: each part is as committed when read.
 */
@Injectable()
export class ClientOverviewService {
  constructor(
    private readonly clients: ClientsService,
    private readonly invoices: InvoicesService,
    private readonly estimates: EstimatesService,
  ) {}

  async get(id: number): Promise<ClientReadResponseDto> {
    const client = await this.clients.get(id);
    const invoices = await this.invoices.listForClient(id);
    const estimates = await this.estimates.listForClient(id);
    return { data: [client], invoices, estimates };
  }
}
