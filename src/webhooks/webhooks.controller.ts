import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ListQueryDto } from '../common/list-query.dto';
import { ListAnswer } from '../database/find-list';
import { DeletedResponseDto } from '../openapi/dto/deleted-response.dto';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook-input.dto';
import {
  WebhookDeliveryListResponseDto,
  WebhookDeliveryResponseDto,
  WebhookListResponseDto,
  WebhookResponseDto,
  WebhookSecretResponseDto,
} from './dto/webhook-response.dto';
import { withoutSecret } from './webhooks.mapper';
import { WebhooksService } from './webhooks.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

const NOT_FOUND = 'No live webhook endpoint with this id';
const URL_REFUSED =
  'A missing or malformed parameter, an unknown event type, or a url that is not http(s), does not resolve, or resolves to a non-public address (unless WEBHOOK_ALLOW_PRIVATE=true)';

@ApiResource('webhooks')
@Controller('webhook')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List webhook endpoints',
    description: 'Beyond the specification: live endpoints, oldest first, without their secrets.',
    query: ListQueryDto,
    success: WebhookListResponseDto,
    errors: { 422: 'A malformed page' },
  })
  list(@RequestInput() query: ListQueryDto): Promise<ListAnswer<WebhookListResponseDto>> {
    return this.webhooks.list(query);
  }

  @Post('add')
  @Idempotent({ keep: withoutSecret })
  @ApiEndpoint({
    summary: 'Add a webhook endpoint',
    description:
      'Beyond the specification: events of the listed types are POSTed to url, signed as Standard Webhooks specifies. The answer carries the signing secret, shown only here and by rotate-secret; a replay of this request with its Idempotency-Key answers the endpoint without it.',
    body: CreateWebhookDto,
    success: WebhookSecretResponseDto,
    errors: { 422: URL_REFUSED },
  })
  create(@RequestInput() input: CreateWebhookDto): Promise<WebhookSecretResponseDto> {
    return this.webhooks.create(input);
  }

  @Post('delivery/:id/retry')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Retry a webhook delivery',
    description:
      'Beyond the specification: the delivery is due again at once, whatever its state (a delivered event may be sent again, with the same webhook-id).',
    pathId: 'Id of the delivery',
    success: WebhookDeliveryResponseDto,
    errors: {
      404: 'No delivery with this id, or its endpoint was deleted',
      409: 'An attempt is being made now',
    },
  })
  retry(@Param('id', ParseIdPipe) id: number): Promise<WebhookDeliveryResponseDto> {
    return this.webhooks.retry(id);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read a webhook endpoint',
    description: 'Beyond the specification; never the secret.',
    pathId: 'Id of the endpoint',
    success: WebhookResponseDto,
    errors: { 404: NOT_FOUND },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<WebhookResponseDto> {
    return this.webhooks.get(id);
  }

  @Put(':id')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Update a webhook endpoint',
    description:
      'Beyond the specification: any of url, events, description, and enabled (false pauses its deliveries; true resumes them).',
    pathId: 'Id of the endpoint',
    body: UpdateWebhookDto,
    success: WebhookResponseDto,
    errors: { 404: NOT_FOUND, 422: URL_REFUSED },
  })
  update(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: UpdateWebhookDto,
  ): Promise<WebhookResponseDto> {
    return this.webhooks.update(id, input);
  }

  @Delete(':id')
  @ApiEndpoint({
    summary: 'Delete (archive) a webhook endpoint',
    description: 'Beyond the specification: its deliveries still to make are failed.',
    pathId: 'Id of the endpoint',
    success: DeletedResponseDto,
    errors: { 404: NOT_FOUND },
  })
  archive(@Param('id', ParseIdPipe) id: number): Promise<DeletedResponseDto> {
    return this.webhooks.archive(id);
  }

  @Post(':id/rotate-secret')
  @Idempotent({ keep: withoutSecret })
  @ApiEndpoint({
    summary: 'Rotate a webhook endpoint’s secret',
    description:
      'Beyond the specification: a new secret, shown only in this answer (a replay with its Idempotency-Key answers the endpoint without it; rotate again for a new one); every delivery from now on is signed with it alone.',
    pathId: 'Id of the endpoint',
    success: WebhookSecretResponseDto,
    errors: { 404: NOT_FOUND },
  })
  rotateSecret(@Param('id', ParseIdPipe) id: number): Promise<WebhookSecretResponseDto> {
    return this.webhooks.rotateSecret(id);
  }

  @Get(':id/deliveries')
  @ApiEndpoint({
    summary: 'A webhook endpoint’s delivery log',
    description:
      'Beyond the specification: its deliveries, oldest first, each with every attempt (status code, duration, the first 1 KiB of the answer).',
    pathId: 'Id of the endpoint',
    query: ListQueryDto,
    success: WebhookDeliveryListResponseDto,
    errors: { 404: NOT_FOUND, 422: 'A malformed page' },
  })
  deliveries(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() query: ListQueryDto,
  ): Promise<ListAnswer<WebhookDeliveryListResponseDto>> {
    return this.webhooks.deliveries(id, query);
  }
}
