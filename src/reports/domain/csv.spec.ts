import { parse } from 'csv-parse/sync';
import { inertText, toCsv } from './csv';

describe('report CSV', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x.test","y")'])(
    'makes the text cell %j inert',
    (text) => {
      expect(inertText(text)).toBe(`'${text}`);
    },
  );

  it('leaves other text and every amount as it is', () => {
    expect(inertText('Acme = Co')).toBe('Acme = Co');
    const csv = toCsv([{ name: 'client', text: true }, { name: 'amount' }], [['-x', '-12.50']]);
    expect(csv).toBe("client,amount\r\n'-x,-12.50\r\n");
  });

  it('quotes commas, quotes and line breaks, and parses back', () => {
    const name = 'A, "B"\nC';
    const csv = toCsv([{ name: 'client', text: true }], [[name]]);
    expect(csv).toBe('client\r\n"A, ""B""\nC"\r\n');
    expect(parse(csv)).toEqual([['client'], [name]]);
  });
});
