import { NestApplicationOptions } from '@nestjs/common';

/**
 * Options every instance of the app is created with, in production and in tests alike. Body
 * parsing is the AppModule's own middleware (three encodings, exact JSON numbers), so Nest's
 * default parser stays off.
 */
export const APP_OPTIONS: NestApplicationOptions = { bodyParser: false };
