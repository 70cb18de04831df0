import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DEFAULT_DATABASE_URL } from '../config/app-config';
import { validateEnvironment } from '../config/environment';
import { buildDataSourceOptions } from './data-source-options';

/**
 * For the TypeORM CLI (`npm run migration:run`); the service itself runs migrations at start-up.
 * A migration job needs only the database: the rest of the service's settings (keys in
 * production among them) are not asked of it.
 */
const env = validateEnvironment({ DATABASE_URL: process.env.DATABASE_URL });
export default new DataSource(buildDataSourceOptions(env.DATABASE_URL ?? DEFAULT_DATABASE_URL));
