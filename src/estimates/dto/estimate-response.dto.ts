import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import {
  DocumentCustomerFieldsDto,
  DocumentDateFieldsDto,
  DocumentPricingFieldsDto,
  DocumentTaxTermsDto,
  TaxBreakdownProperty,
  TaxGroupDto,
  TimestampFieldsDto,
} from '../../documents/dto/document-fields-response.dto';
import { DocumentDetailPartsDto } from '../../documents/dto/document-detail-response.dto';
import { LineItemOutputDto } from '../../documents/dto/line-item-response.dto';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import {
  EnumProperty,
  IdProperty,
  ShortCodeProperty,
  TextProperty,
} from '../../openapi/schema-property.decorator';
import { AcceptedFlag } from './create-estimate.dto';

/** The estimate fields of every output but its number, whose name depends on the output. */
class EstimateFieldsDto extends IntersectionType(
  DocumentCustomerFieldsDto,
  DocumentPricingFieldsDto,
  DocumentDateFieldsDto,
  DocumentTaxTermsDto,
) {
  @IdProperty()
  id: string;

  @ShortCodeProperty()
  short_code: string;

  @TextProperty('May be empty')
  description: string;

  @EnumProperty(['True', 'False'])
  accepted: AcceptedFlag;

  @ApiProperty({
    type: 'boolean',
    description:
      'Beyond the specification: a draft has no number yet (empty) until POST /estimate/{id}/issue, and cannot be sent or converted',
  })
  draft: boolean;
}

/** An estimate in `GET /estimate/all` and `GET /estimate/{id}`: reference_no, no timestamps. */
export class EstimateDto extends EstimateFieldsDto {
  @TextProperty('The estimate number (the input estimate_no)')
  reference_no: string;
}

/** An estimate embedded in `GET /client/{id}`: reference_no and timestamps. */
export class EstimateWithTimestampsDto extends IntersectionType(EstimateDto, TimestampFieldsDto) {}

/** An estimate as add and update answer it: estimate_no, no timestamps. */
export class EstimateWrittenDto extends EstimateFieldsDto {
  @TextProperty('The estimate number, unique among live estimates')
  estimate_no: string;
}

/** `GET /estimate/all`. */
export class EstimateListResponseDto {
  @ApiProperty({ type: [EstimateDto], description: 'Live estimates, oldest first' })
  data: EstimateDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `GET /estimate/{id}`. */
export class EstimateReadResponseDto extends DocumentDetailPartsDto {
  @ApiProperty({ type: [EstimateDto], description: 'The one estimate' })
  estimate: EstimateDto[];
}

/** `POST /estimate/add` and `PUT /estimate/{id}`. */
export class EstimateWriteResponseDto {
  @ApiProperty({ type: [EstimateWrittenDto], description: 'The one estimate' })
  estimate: EstimateWrittenDto[];

  @ApiProperty({ type: [LineItemOutputDto], description: 'Its lines, in input order, no amount' })
  items: LineItemOutputDto[];

  @TaxBreakdownProperty()
  tax_breakdown: TaxGroupDto[];
}
