import { describe, expect, it } from 'vitest';
import { expirationOf } from './rdap.ts';

describe('an RDAP domain object', () => {
  it('gives its expiration event’s date, or none', () => {
    const domain = {
      objectClassName: 'domain',
      ldhName: 'EXAMPLE.COM',
      events: [
        { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
        { eventAction: 'expiration', eventDate: '2027-08-13T04:00:00Z' },
        { eventAction: 'last update of RDAP database', eventDate: '2026-11-26T10:00:00Z' },
      ],
    };
    expect(expirationOf(domain)).toEqual(new Date('2027-08-13T04:00:00Z'));
    expect(expirationOf({ events: [{ eventAction: 'expiration', eventDate: 'soon' }] })).toBeNull();
    expect(expirationOf({ events: 'none' })).toBeNull();
    expect(expirationOf(null)).toBeNull();
  });
});
