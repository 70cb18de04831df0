import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { currentRequest } from '../../logging/request-context';
import { readPresentedKey } from './api-key-header';
import { ApiKeyIdentity, ApiKeyRing } from './api-key-ring';
import { CHANGES_STATE } from './changes-state.decorator';
import { isPublicRoute } from './public.decorator';

const READ_METHODS = new Set(['GET', 'HEAD']);
const API_KEY = Symbol('invoicing:api-key');

type RequestWithApiKey = Request & { [API_KEY]?: ApiKeyIdentity };

/** The key the request was let in with; undefined when the API is open or the route public. */
export function apiKeyOf(request: Request): ApiKeyIdentity | undefined {
  return (request as RequestWithApiKey)[API_KEY];
}

/**
 * Every route needs an API key unless marked `@Public()`: a full key may do everything, a
 * read-only key only GET and HEAD routes that change nothing. With no key configured the API
 * is open (the configuration refuses that in production unless AUTH_DISABLED=true).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate, OnApplicationBootstrap {
  private readonly logger = new Logger(ApiKeyGuard.name);
  private readonly ring: ApiKeyRing;
  private readonly publicHandlers = new WeakMap<object, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {
    this.ring = new ApiKeyRing(config.apiKeys, config.readOnlyApiKeys);
  }

  onApplicationBootstrap(): void {
    if (this.config.authOpen) {
      this.logger.warn(
        'No API key is configured (API_KEYS, API_KEYS_READONLY): the API is OPEN, anyone who can reach it may read and change every record',
      );
    }
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.config.authOpen || this.isPublic(context)) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const presented = readPresentedKey(request.headers);
    const identity = presented.status === 'present' ? this.ring.identify(presented.key) : undefined;
    if (identity === undefined) {
      context.switchToHttp().getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException(
        presented.status === 'missing' ? 'An API key is required' : 'Invalid API key',
      );
    }
    if (identity.access === 'read-only' && this.changesState(request, context)) {
      throw new ForbiddenException('This API key may only read');
    }
    (request as RequestWithApiKey)[API_KEY] = identity;
    // The events the request records name the key.
    const handling = currentRequest();
    if (handling !== undefined) handling.actor = identity.id;
    return true;
  }

  /** Read from the route's metadata once per handler. */
  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.publicHandlers.get(handler);
    if (known === undefined) {
      known = isPublicRoute(this.reflector, context, this.config);
      this.publicHandlers.set(handler, known);
    }
    return known;
  }

  private changesState(request: Request, context: ExecutionContext): boolean {
    if (!READ_METHODS.has(request.method)) return true;
    return (
      this.reflector.getAllAndOverride<boolean | undefined>(CHANGES_STATE, [
        context.getHandler(),
        context.getClass(),
      ]) === true
    );
  }
}
