import type { EinvoiceAddress } from '../../common/einvoice-codes';

/*
 * The identifier schemes whose form Peppol checks (PEPPOL-COMMON-R040 to -R050, the fatal
 * ones): an electronic address in one of them with a wrong check digit is refused by the
 * network, so a Peppol e-invoice names it as a problem instead of carrying it. Each check is
 * the scheme's published algorithm.
 */

const DIGITS = /^[0-9]+$/;

/** The digits of a text of digits, as numbers. */
function digitsOf(text: string): number[] {
  return [...text].map(Number);
}

/** GS1's check digit (GLN, 0088): weights 3 and 1 from the right of the body. */
function gs1CheckDigitHolds(value: string): boolean {
  if (!DIGITS.test(value) || value.length < 2) return false;
  const body = digitsOf(value.slice(0, -1)).reverse();
  const sum = body.reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(value.at(-1));
}

/** Modulus 11, weights 2 to 7 from the right (the Norwegian organisation number, 0192). */
function modulus11Holds(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value) || Number(value) === 0) return false;
  const body = digitsOf(value.slice(0, -1)).reverse();
  const sum = body.reduce((total, digit, index) => total + digit * ((index % 6) + 2), 0);
  return (11 - (sum % 11)) % 11 === Number(value.at(-1));
}

/** The Belgian enterprise number (0208): its last two digits are 97 less the first eight mod 97. */
function belgianEnterpriseNumberHolds(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  return 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

/** The Swedish organisation number (0007): ten digits, the last Luhn's check digit of the nine. */
function swedishOrganisationNumberHolds(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  const body = digitsOf(value.slice(0, 9)).reverse();
  const sum = body.reduce((total, digit, index) => {
    const weighted = index % 2 === 0 ? digit * 2 : digit;
    return total + (weighted % 10) + Math.floor(weighted / 10);
  }, 0);
  return (10 - (sum % 10)) % 10 === Number(value[9]);
}

/** The Australian Business Number (0151): eleven digits, weighted (the first less one) mod 89. */
function australianBusinessNumberHolds(value: string): boolean {
  if (!/^[0-9]{11}$/.test(value)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const digits = digitsOf(value);
  digits[0] -= 1;
  return digits.reduce((total, digit, index) => total + digit * weights[index], 0) % 89 === 0;
}

/** The Danish CVR number (0184): eight digits, with or without DK before them. */
function danishCvrHolds(value: string): boolean {
  return /^(DK)?[0-9]{8}$/.test(value);
}

const CHECKS: Record<string, { name: string; rule: string; holds: (value: string) => boolean }> = {
  '0088': { name: 'a GLN with its GS1 check digit', rule: 'R040', holds: gs1CheckDigitHolds },
  '0192': { name: 'a Norwegian organisation number', rule: 'R041', holds: modulus11Holds },
  '0184': { name: 'a Danish CVR number', rule: 'R042', holds: danishCvrHolds },
  '0208': {
    name: 'a Belgian enterprise number',
    rule: 'R043',
    holds: belgianEnterpriseNumberHolds,
  },
  '0007': {
    name: 'a Swedish organisation number',
    rule: 'R049',
    holds: swedishOrganisationNumberHolds,
  },
  '0151': {
    name: 'an Australian Business Number',
    rule: 'R050',
    holds: australianBusinessNumberHolds,
  },
};

/** What is wrong with the address for Peppol, or null when its scheme's check holds or it has none. */
export function peppolIdentifierProblem(address: EinvoiceAddress): string | null {
  const check = CHECKS[address.scheme];
  if (check === undefined || check.holds(address.identifier)) return null;
  return `scheme ${address.scheme} takes ${check.name}; ${address.identifier} is not one (PEPPOL-COMMON-${check.rule})`;
}
