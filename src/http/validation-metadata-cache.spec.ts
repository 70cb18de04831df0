import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsInt, IsString, MetadataStorage, validate } from 'class-validator';
import { CreateCreditNoteDto } from '../credit-notes/dto/create-credit-note.dto';
import { CreateInvoiceDto } from '../invoices/dto/create-invoice.dto';
import { cacheValidationMetadata } from './validation-metadata-cache';
import { flattenValidationErrors } from './validation.pipe';

class Parent {
  @IsString()
  name: string;
}

class Child extends Parent {
  @IsInt()
  count: number;
}

/** A storage of its own holding Parent's and Child's rules, as class-validator records them. */
function storageWith(source: MetadataStorage): MetadataStorage {
  const storage = new MetadataStorage();
  for (const target of [Parent, Child]) {
    for (const rule of source.getTargetValidationMetadatas(target, '', false, false)) {
      if (rule.target === target) storage.addValidationMetadata(rule);
    }
  }
  return storage;
}

describe('cacheValidationMetadata', () => {
  it('answers the rules class-validator finds, inherited ones included, for every variant', () => {
    const storage = storageWith(getMetadataStorage());
    const expected = (always: boolean, schema: string) =>
      storage.getTargetValidationMetadatas(Child, schema, always, false);
    const before = [expected(false, ''), expected(true, 'LineItemDto'), expected(false, 'Parent')];
    cacheValidationMetadata(storage);
    const after = [
      storage.getTargetValidationMetadatas(Child, '', false, false),
      storage.getTargetValidationMetadatas(Child, 'LineItemDto', true, false),
      storage.getTargetValidationMetadatas(Child, 'Parent', false, false),
    ];
    expect(after).toEqual(before);
    expect(after[0].map((rule) => rule.propertyName).sort()).toEqual(['count', 'name']);
    // Kept: the second lookup is the first one's answer, not a new scan.
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(after[0]);
    expect(storage.groupByPropertyName(after[0])).toBe(storage.groupByPropertyName(after[0]));
  });

  it('leaves lookups with groups to class-validator', () => {
    const storage = storageWith(getMetadataStorage());
    cacheValidationMetadata(storage);
    const first = storage.getTargetValidationMetadatas(Child, '', false, false, ['admin']);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['admin'])).not.toBe(
      first,
    );
  });

  it('gives the same errors for nested lines and taxes, and inherited DTO rules, once kept', async () => {
    const errorsOf = async (target: new () => object, plain: object) =>
      flattenValidationErrors(
        await validate(plainToInstance(target, plain), { whitelist: true, stopAtFirstError: true }),
      );
    const invoice = {
      client: '1',
      items: [
        { description: 'A', quantity: '1', rate: '1', taxes: [{ rate: '101' }] },
        { description: 'B', quantity: '1', rate: '1', taxes: ['x'] },
      ],
    };
    const creditNote = { items: [{ description: '', quantity: '0', rate: '1' }] };
    const before = [
      await errorsOf(CreateInvoiceDto, invoice),
      await errorsOf(CreateCreditNoteDto, creditNote),
    ];
    cacheValidationMetadata();
    const after = [
      await errorsOf(CreateInvoiceDto, invoice),
      await errorsOf(CreateCreditNoteDto, creditNote),
    ];
    expect(after).toEqual(before);
    expect(Object.keys(after[0])).toEqual(
      expect.arrayContaining(['items.0.taxes.0.rate', 'items.1.taxes']),
    );
    expect(Object.keys(after[1])).toEqual(
      expect.arrayContaining(['items.0.description', 'items.0.quantity']),
    );
  });
});
