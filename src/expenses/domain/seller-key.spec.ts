import { sellerKey } from './seller-key';

describe('sellerKey', () => {
  it('is the VAT identifier as the tax office writes it, when there is one', () => {
    expect(sellerKey({ vatId: 'DE 123.456-789', name: 'Acme' })).toBe('vat:DE123456789');
    expect(sellerKey({ vatId: 'de123456789', name: 'Other name' })).toBe('vat:DE123456789');
  });

  it('is the name, its white space made single spaces, when there is none', () => {
    expect(sellerKey({ vatId: '', name: ' Möbel  &\tCo KG ' })).toBe('name:Möbel & Co KG');
    expect(sellerKey({ vatId: '', name: 'Acme' })).not.toBe(sellerKey({ vatId: '', name: 'acme' }));
  });
});
