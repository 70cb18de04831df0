import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { actingFor } from '../../events/event-actor';
import { apiKeyOf } from './api-key.guard';

/**
 * Runs the handler on behalf of the caller, so the events it records name them: the API
 * key's id, or `open` when the API has no keys.
 */
@Injectable()
export class ActorInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const actor = apiKeyOf(context.switchToHttp().getRequest<Request>())?.id ?? 'open';
    return new Observable((subscriber) =>
      actingFor(actor, () => next.handle().subscribe(subscriber)),
    );
  }
}
