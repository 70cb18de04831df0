import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { APP_OPTIONS } from './app.options';
import { configureApp, createHttpAdapter } from './app.setup';
import { AppConfig } from './config/app-config';
import { enableGracefulShutdown } from './lifecycle/shutdown-signals';

async function bootstrap(): Promise<void> {
  const app = configureApp(await NestFactory.create(AppModule, createHttpAdapter(), APP_OPTIONS));
  enableGracefulShutdown(app);
  const config = app.get(AppConfig);
  await app.listen(config.port, config.host);
  Logger.log(`Listening on http://${config.host}:${config.port}/v1`, 'Bootstrap');
}

void bootstrap();
