import { einvoiceView, EINVOICE_PARTIES } from '../../../test/factories/einvoice-views';
import { einvoiceXml } from './einvoice';
import { peppolIdentifierProblem } from './peppol-identifiers';

/*
 * The identifier schemes Peppol checks (PEPPOL-COMMON-R040 to -R050): registered numbers pass,
 * the same numbers with one digit changed do not; other schemes are not checked. The official
 * Peppol rules passed a Peppol invoice to each valid one beside the project (docs/einvoices.md).
 */

const VALID: Array<[string, string]> = [
  ['0088', '5790000435975'],
  ['0088', '4000001000005'],
  ['0192', '974760673'],
  ['0208', '0403170701'],
  ['0007', '5560360793'],
  ['0151', '51824753556'],
  ['0184', 'DK12345678'],
  ['0184', '12345678'],
];

/** The number with its last digit one higher (9 becomes 0): its check digit is wrong then. */
function lastDigitChanged(identifier: string): string {
  return identifier.slice(0, -1) + String((Number(identifier.at(-1)) + 1) % 10);
}

describe('peppolIdentifierProblem', () => {
  it.each(VALID)('takes %s:%s', (scheme, identifier) => {
    expect(peppolIdentifierProblem({ scheme, identifier })).toBeNull();
  });

  it.each(VALID.filter(([scheme]) => scheme !== '0184'))(
    'refuses %s:%s with its last digit changed, naming the rule',
    (scheme, identifier) => {
      expect(peppolIdentifierProblem({ scheme, identifier: lastDigitChanged(identifier) })).toMatch(
        /PEPPOL-COMMON-R0(40|41|43|49|50)\)$/,
      );
    },
  );

  it.each([
    ['0088', '579000043597A'],
    ['0192', '97476067'],
    ['0208', '403170701'],
    ['0007', '556036-0793'],
    ['0151', '5182475355'],
    ['0184', 'DK1234567'],
    ['0192', '000000000'],
  ])('refuses %s:%s, not of its form', (scheme, identifier) => {
    expect(peppolIdentifierProblem({ scheme, identifier })).not.toBeNull();
  });

  it('checks no other scheme', () => {
    expect(peppolIdentifierProblem({ scheme: '9930', identifier: 'DE1' })).toBeNull();
    expect(peppolIdentifierProblem({ scheme: 'EM', identifier: 'ap@example.com' })).toBeNull();
  });

  it('makes a Peppol e-invoice name a wrong check digit of either party; other formats carry it', () => {
    const parties = {
      seller: { ...EINVOICE_PARTIES.seller, einvoiceAddress: '0088:5790000435976' },
      buyerAddress: '0208:0403170702',
    };

    const peppol = einvoiceXml('peppol', einvoiceView(), parties);

    expect(peppol).toEqual({
      problems: {
        'company.einvoice_address': [expect.stringContaining('PEPPOL-COMMON-R040')],
        'client.einvoice_address': [expect.stringContaining('PEPPOL-COMMON-R043')],
      },
    });
    expect(einvoiceXml('ubl', einvoiceView(), parties)).toHaveProperty('xml');
  });
});
