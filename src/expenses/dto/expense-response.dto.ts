import { ApiProperty } from '@nestjs/swagger';
import { SOURCE_FORMATS } from '../einvoice/einvoice-import';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import {
  CurrencyProperty,
  DateProperty,
  EnumProperty,
  IdProperty,
  ShortCodeProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';
import { EXPENSE_CATEGORIES } from '../domain/expense-category';

/** Signed exact decimal text, as an e-invoice states it (credit lines may be negative). */
const SIGNED_DECIMAL_PATTERN = '^-?[0-9]+(\\.[0-9]+)?$';

function SignedDecimalTextProperty(description: string): PropertyDecorator {
  return ApiProperty({ type: 'string', pattern: SIGNED_DECIMAL_PATTERN, description });
}

/** BG-23: one VAT group of an imported e-invoice. */
export class ExpenseSourceTaxGroupDto {
  @TextProperty('BT-118, the VAT category code (S, Z, E, AE, K, G, O, L, M)')
  category: string;

  @ApiProperty({
    type: 'string',
    pattern: '^(-?[0-9]+(\\.[0-9]+)?)?$',
    description: 'BT-119, the VAT rate in percent; empty when the document gives none',
  })
  rate: string;

  @SignedDecimalTextProperty('BT-116, the taxable amount')
  taxable_amount: string;

  @SignedDecimalTextProperty('BT-117, the VAT amount')
  tax_amount: string;
}

/** BG-25: one line of an imported e-invoice. */
export class ExpenseSourceLineDto {
  @TextProperty('BT-126, the line identifier')
  id: string;

  @TextProperty('BT-153, the item name; empty when none')
  name: string;

  @SignedDecimalTextProperty('BT-129, the invoiced quantity')
  quantity: string;

  @TextProperty('BT-130, the UN/ECE Recommendation 20 unit code; empty when none')
  unit: string;

  @ApiProperty({
    type: 'string',
    pattern: '^(-?[0-9]+(\\.[0-9]+)?)?$',
    description: 'BT-146, the item net price; empty when none',
  })
  net_price: string;

  @SignedDecimalTextProperty('BT-131, the line net amount')
  net_amount: string;

  @TextProperty('BT-151, the line VAT category code; empty when none')
  vat_category: string;

  @ApiProperty({
    type: 'string',
    pattern: '^(-?[0-9]+(\\.[0-9]+)?)?$',
    description: 'BT-152, the line VAT rate in percent; empty when none',
  })
  vat_rate: string;
}

/** Beyond the specification: the e-invoice an expense was imported from (POST /expense/import). */
export class ExpenseSourceDto {
  @EnumProperty(
    SOURCE_FORMATS,
    'ubl (UBL 2.1 Invoice or CreditNote), cii (UN/CEFACT CII D16B), facturx (a Factur-X / ZUGFeRD PDF)',
  )
  format: string;

  @TextProperty('BT-31, the seller’s VAT identifier; empty when the document gives none')
  seller_vat_id: string;

  @TextProperty('BT-1, the invoice number')
  invoice_number: string;

  @TextProperty('BT-3, the UNTDID 1001 type code (380 invoice, 381 credit note, …)')
  type_code: string;

  @ApiProperty({ type: [ExpenseSourceTaxGroupDto], description: 'BG-23, the VAT breakdown' })
  tax_breakdown: ExpenseSourceTaxGroupDto[];

  @ApiProperty({ type: [ExpenseSourceLineDto], description: 'BG-25, the lines' })
  lines: ExpenseSourceLineDto[];
}

/** The one shape of an expense, in lists, reads and write outputs alike. */
export class ExpenseDto {
  @IdProperty()
  id: string;

  @ShortCodeProperty()
  short_code: string;

  @EnumProperty(EXPENSE_CATEGORIES, 'Chosen by the service from description and vendor')
  category: string;

  @TextProperty()
  description: string;

  @ApiProperty({
    type: 'string',
    pattern: '^-?[0-9]+(\\.[0-9]{1,4})?$',
    description:
      'Exactly the currency’s minor digits ("12.50", "1500" for JPY). Numeric text; negative only for an imported credit note (its amount due, BT-115, taken off)',
  })
  amount: string;

  @CurrencyProperty()
  currency: string;

  @TextProperty('Empty when not given')
  vendor: string;

  @DateProperty('The input issue_date')
  issued_date: string;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty('UTC, YYYY-MM-DD HH:MM:SS; changes on every write to the record')
  updated_at: string;

  @ApiProperty({
    type: ExpenseSourceDto,
    nullable: true,
    // The examples' expense was added by hand (its source is ExpenseSourceDto's example).
    example: null,
    description:
      'Beyond the specification: the e-invoice the expense was imported from (POST /expense/import); null for an expense added by hand',
  })
  source: ExpenseSourceDto | null;
}

/** `GET /expense/all`. */
export class ExpenseListResponseDto {
  @ApiProperty({ type: [ExpenseDto], description: 'Live expenses, oldest first' })
  data: ExpenseDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `GET /expense/{id}`, `POST /expense/add`, `POST /expense/import`, `PUT /expense/{id}`. */
export class ExpenseResponseDto {
  @ApiProperty({ type: [ExpenseDto], description: 'The one expense' })
  expense: ExpenseDto[];
}
