import { postalAddressOf } from './postal-address';

describe('postalAddressOf', () => {
  it.each([
    ['Hauptstraße 1, 10115 Berlin', { street: 'Hauptstraße 1', postCode: '10115', city: 'Berlin' }],
    ['Rue X 3\n75001 Paris', { street: 'Rue X 3', postCode: '75001', city: 'Paris' }],
    [
      'c/o Y\nWeg 2, D-10115 Berlin',
      { street: 'c/o Y, Weg 2', postCode: 'D-10115', city: 'Berlin' },
    ],
    ['1010 Wien', { postCode: '1010', city: 'Wien' }],
    ['Rua A 1, 1000-001 Lisboa', { street: 'Rua A 1', postCode: '1000-001', city: 'Lisboa' }],
  ])('reads the post code and city of the last line of %j', (text, parts) => {
    expect(postalAddressOf(text, 'DE')).toEqual({ ...parts, country: 'DE' });
  });

  it.each(['1 Main Street, Springfield', 'London SW1A 1AA', 'Hauptstraße 1'])(
    'keeps %j whole as the street line when its last line is no post code and city',
    (text) => {
      expect(postalAddressOf(text, 'GB')).toEqual({ street: text, country: 'GB' });
    },
  );

  it('has no parts for no address', () => {
    expect(postalAddressOf('  ', 'FR')).toEqual({ country: 'FR' });
  });
});
