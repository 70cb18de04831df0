import 'reflect-metadata';
import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/*
 * The floor the service's fixed cost is measured against: an empty Nest application on the
 * same Express adapter, one route answering the success envelope, no logger. With
 * EXTRA_ROUTES=N, N other routes (`GET /v1/route<i>/:id`) are registered ahead of it, as the
 * service's operations are ahead of /health: what Express's router costs to walk them.
 *
 *   PORT=3100 [EXTRA_ROUTES=52] node <compiled empty-nest.js>
 */

@Controller()
class EmptyController {
  @Get('empty')
  empty(): { status: string } {
    return { status: 'success' };
  }
}

@Controller('v1')
class OtherRoutesController {}

const extraRoutes = Number(process.env.EXTRA_ROUTES ?? 0);
for (let index = 0; index < extraRoutes; index += 1) {
  const name = `route${index}`;
  const handler = (id: string) => ({ status: 'success', id });
  Object.defineProperty(OtherRoutesController.prototype, name, {
    value: handler,
    configurable: true,
  });
  const descriptor = Object.getOwnPropertyDescriptor(OtherRoutesController.prototype, name);
  Param('id')(OtherRoutesController.prototype, name, 0);
  Get(`${name}/:id`)(OtherRoutesController.prototype, name, descriptor as PropertyDescriptor);
}

@Module({ controllers: [OtherRoutesController, EmptyController] })
class EmptyModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(EmptyModule, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
