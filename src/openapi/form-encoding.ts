import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ReferenceObject,
  RequestBodyObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const FORM_TYPE = 'application/x-www-form-urlencoded';

const BODY_DESCRIPTION =
  'The parameters as a JSON object, or as a URL-encoded form or multipart form fields, where a nested value is named by its path in brackets: `items[0][description]=Design&items[0][quantity]=2&items[0][rate]=450.00`, `events[0]=invoice.created` (src/http/body-parsing.middleware.ts). The same names are read from the query string; a body value wins.';

/**
 * The form encodings of each request body, stated where OpenAPI 3.0 can: a URL-encoded form
 * names each array or object parameter `deepObject`, exploded (`items[0][rate]=…`). OpenAPI
 * defines no style for multipart fields (3.0.3, Encoding Object: style is ignored there), so the
 * body's description says it for both.
 */
export function withFormEncoding(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, OperationObject>).map(([method, operation]) => {
          const body = operation.requestBody as RequestBodyObject | undefined;
          const form = body?.content[FORM_TYPE];
          if (!body || !form?.schema) return [method, operation];
          const nested = nestedParameters(resolve(form.schema, schemas), schemas);
          const encoding = Object.fromEntries(
            nested.map((name) => [name, { style: 'deepObject', explode: true }]),
          );
          const content = {
            ...body.content,
            [FORM_TYPE]: nested.length > 0 ? { ...form, encoding } : form,
          };
          return [
            method,
            { ...operation, requestBody: { ...body, description: BODY_DESCRIPTION, content } },
          ];
        }),
      ),
    ]),
  );
  return { ...document, paths };
}

type Schemas = Record<string, SchemaObject | ReferenceObject>;

function resolve(schema: SchemaObject | ReferenceObject, schemas: Schemas): SchemaObject {
  if (!('$ref' in schema)) return schema;
  return resolve(schemas[schema.$ref.split('/').pop() as string], schemas);
}

/** The parameters whose value is an array or an object: those named with brackets in a form. */
function nestedParameters(schema: SchemaObject, schemas: Schemas): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => {
      const resolved = resolve(property, schemas);
      return resolved.type === 'array' || resolved.type === 'object' || !!resolved.properties;
    })
    .map(([name]) => name);
}
