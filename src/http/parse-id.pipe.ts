import { Injectable, NotFoundException, PipeTransform } from '@nestjs/common';
import { parseId } from '../common/input-rules';

/** A path id that is not all digits, or that no record can have, names no record: 404. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = parseId(value);
    if (id === null) throw new NotFoundException(`No record with id ${value}`);
    return id;
  }
}
