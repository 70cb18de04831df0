import { HttpException, HttpStatus, Injectable, NestMiddleware } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express, NextFunction, Request, Response } from 'express';

/** What Express's router holds for one route (Nest registered it there). */
interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean | undefined> };
}

/** The order the `Allow` header lists methods in. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** Where a path parameter stands in a path's key. */
const PARAMETER = ':';
const DIGITS = /^[0-9]+$/;

/** Every method some route takes, by path key: `/v1/invoice/:/pdf`, lower case, no final slash. */
export type MethodTable = Map<string, Set<string>>;

/**
 * The method table of the routes Express holds. A path parameter is an id, and ids are digits
 * (src/common/input-rules.ts, parseId), so it stands for digits only: `/v1/invoice/add` is the
 * path of `POST /invoice/add`, not `/v1/invoice/{id}` with the id "add". Express matches paths
 * ignoring case and a final slash; so does this. Routes that are not a plain template (an
 * array, a RegExp, a wildcard) take no part.
 */
export function methodTable(layers: readonly RouterLayer[]): MethodTable {
  const table: MethodTable = new Map();
  for (const { route } of layers) {
    if (!route || typeof route.path !== 'string' || /[*{}()?+]/.test(route.path)) continue;
    const key = pathKey(
      route.path.split('/').map((segment) => (segment.startsWith(':') ? PARAMETER : segment)),
    );
    const methods = table.get(key) ?? new Set<string>();
    for (const [method, handled] of Object.entries(route.methods)) {
      if (handled) methods.add(method === '_all' ? '*' : method.toUpperCase());
    }
    // Express answers HEAD with the GET route.
    if (methods.has('GET')) methods.add('HEAD');
    table.set(key, methods);
  }
  return table;
}

function pathKey(segments: string[]): string {
  const key = segments.join('/').toLowerCase();
  return key.length > 1 && key.endsWith('/') ? key.slice(0, -1) : key;
}

/**
 * The methods the app takes on this path, or null when it has no route there (an unknown
 * path, or a parameter that is not digits: the router and its 404 decide those). Two lookups:
 * the path as it is, and the path with its digit segments as parameters.
 */
export function allowedMethods(table: MethodTable, path: string): Set<string> | null {
  const segments = path.split('/');
  const literal = table.get(pathKey(segments));
  const withIds = segments.some((segment) => DIGITS.test(segment))
    ? table.get(pathKey(segments.map((segment) => (DIGITS.test(segment) ? PARAMETER : segment))))
    : undefined;
  if (literal === undefined && withIds === undefined) return null;
  if (literal === undefined || withIds === undefined) return literal ?? withIds ?? null;
  return new Set([...literal, ...withIds]);
}

/** The `Allow` header: the methods in their usual order. */
function allowHeader(methods: Set<string>): string {
  const rank = (method: string) => {
    const index = METHOD_ORDER.indexOf(method);
    return index === -1 ? METHOD_ORDER.length : index;
  };
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).join(', ');
}

/**
 * A path the app has, asked with a method none of its routes takes (`DELETE /v1/invoice/all`,
 * `GET /v1/invoice/add`, `PATCH /v1/client/1`), answers 405 in the error envelope with `Allow`
 * listing the methods it takes, before the key check, the rate limit and body parsing: nothing
 * runs, nothing changes. OPTIONS is no exception (the service answers no OPTIONS). The table is
 * read from the Express router on the first request, when every route is registered.
 * docs/decisions.md, "Wrong method".
 */
@Injectable()
export class MethodNotAllowedMiddleware implements NestMiddleware {
  private table?: MethodTable;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const url = request.originalUrl;
    const queryStart = url.indexOf('?');
    const allowed = allowedMethods(
      this.methodTable(),
      queryStart === -1 ? url : url.slice(0, queryStart),
    );
    if (allowed === null || allowed.has('*') || allowed.has(request.method)) {
      next();
      return;
    }
    const allow = allowHeader(allowed);
    response.setHeader('Allow', allow);
    next(
      new HttpException(
        `${request.method} is not allowed on this path; it takes ${allow}`,
        HttpStatus.METHOD_NOT_ALLOWED,
      ),
    );
  }

  private methodTable(): MethodTable {
    if (!this.table) {
      const express = this.adapterHost.httpAdapter.getInstance<Express>();
      this.table = methodTable((express.router as { stack: RouterLayer[] }).stack);
    }
    return this.table;
  }
}
