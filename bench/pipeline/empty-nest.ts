import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/*
 * The floor the service's fixed cost is measured against: an empty Nest application on the
 * same Express adapter, one route answering the success envelope, no logger.
 *
 *   PORT=3100 node <compiled empty-nest.js>
 */

@Controller()
class EmptyController {
  @Get('empty')
  empty(): { status: string } {
    return { status: 'success' };
  }
}

@Module({ controllers: [EmptyController] })
class EmptyModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(EmptyModule, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
