import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A list answered one page at a time (`page` or `per_page` given). */
export class PageMetaDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 500, example: 50 })
  per_page: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Matching records on all pages' })
  total: number;
}

/** The `meta` of a paged list; absent when the list is answered whole. */
export function PageMetaProperty(): PropertyDecorator {
  return ApiPropertyOptional({
    type: PageMetaDto,
    description: 'Present only when page or per_page is given',
  });
}
