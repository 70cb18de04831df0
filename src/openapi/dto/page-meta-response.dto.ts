import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

/** A list answered one numbered page at a time (`page` or `per_page` given). */
export class PageMetaDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 500, example: 50 })
  per_page: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Matching records on all pages' })
  total: number;
}

/** A list answered a page at a time after an id (`after` given). */
export class CursorMetaDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 500, example: 50 })
  per_page: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '1050',
    description: 'The `after` of the next page; null on the last page',
  })
  next_after: string | null;
}

export type ListMetaDto = PageMetaDto | CursorMetaDto;

/** The `meta` of a paged list; absent when the list is answered whole. */
export function PageMetaProperty(): PropertyDecorator {
  const property = ApiPropertyOptional({
    oneOf: [{ $ref: getSchemaPath(PageMetaDto) }, { $ref: getSchemaPath(CursorMetaDto) }],
    description: 'With page or per_page: page, per_page, total. With after: per_page, next_after',
  });
  const models = ApiExtraModels(PageMetaDto, CursorMetaDto);
  return (target: object, key: string | symbol) => {
    models(target.constructor);
    property(target, key);
  };
}
