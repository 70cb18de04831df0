import { ApiProperty } from '@nestjs/swagger';

/** Operations that answer a sentence: send, record-payment, paid, not-paid, invoice delete. */
export class MessageResponseDto {
  @ApiProperty({ type: 'string', example: 'Invoice INV-1 marked as paid' })
  message: string;
}
