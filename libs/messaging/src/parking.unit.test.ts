import { describe, expect, it } from 'vitest';
import { isLastingFailure, PassingFailure } from './parking.ts';

const pgError = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isLastingFailure', () => {
  it('counts errors in the data or the code as lasting', () => {
    expect(isLastingFailure(pgError('22001', 'value too long for type character varying(40)'))).toBe(true);
    expect(isLastingFailure(pgError('22008', 'timestamp out of range'))).toBe(true);
    expect(isLastingFailure(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(true);
    expect(isLastingFailure(new TypeError("Cannot read properties of undefined (reading 'name')"))).toBe(true);
    expect(isLastingFailure(pgError('ERR_INVALID_ARG_TYPE', 'The "data" argument must be a string'))).toBe(true);
  });

  it('counts trouble reaching or sharing PostgreSQL as passing', () => {
    // Class 42 too (an undefined table or column): code and schema disagree, as during a deploy.
    for (const code of [
      '08006',
      '40001',
      '40P01',
      '42P01',
      '42703',
      '53300',
      '55P03',
      '57014',
      '57P01',
      '58030',
      'XX000',
    ]) {
      expect(isLastingFailure(pgError(code)), code).toBe(false);
    }
    expect(isLastingFailure(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
    expect(isLastingFailure(pgError('ECONNRESET', 'read ECONNRESET'))).toBe(false);
    expect(isLastingFailure(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isLastingFailure(new Error('timeout exceeded when trying to connect'))).toBe(false);
    expect(isLastingFailure(new Error('Client has encountered a connection error and is not queryable'))).toBe(false);
  });

  it('counts an outside system that did not answer as passing, when the reaction says so', () => {
    expect(isLastingFailure(new PassingFailure('The payment provider is not reachable right now.'))).toBe(false);
    expect(isLastingFailure(new Error('The payment provider is not reachable right now.'))).toBe(true);
  });
});
