import { Injectable, NotFoundException, PipeTransform } from '@nestjs/common';

/** Ids fit an unsigned INT column. */
const MAX_ID = 4_294_967_295;

/** A path id that is not all digits, or out of range, names no record: 404. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = /^\d{1,10}$/.test(value) ? parseInt(value, 10) : NaN;
    if (!(id >= 1 && id <= MAX_ID)) throw new NotFoundException(`No record with id ${value}`);
    return id;
  }
}
