import { describe, expect, it } from 'vitest';
import { csv } from './csv.ts';

describe('csv', () => {
  it('quotes what needs it, leaves empty what is missing, and defuses formulas', () => {
    expect(
      csv(
        ['a', 'b', 'c', 'd'],
        [
          ['plain', 'with, comma', 'with "quotes"', 'two\nlines'],
          [null, undefined, 12.5, true],
          ['=SUM(A1)', '+1', '-x', '@me'],
        ],
      ),
    ).toBe(
      'a,b,c,d\r\nplain,"with, comma","with ""quotes""","two\nlines"\r\n,,12.5,true\r\n\'=SUM(A1),\'+1,\'-x,\'@me\r\n',
    );
  });
});
