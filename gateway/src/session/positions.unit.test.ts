import cookie from 'cookie';
import { describe, expect, it } from 'vitest';
import { PositionCookies } from './positions.ts';

const positions = new PositionCookies('a-session-secret-of-at-least-32-characters');

/** What the browser sends back for a `Set-Cookie` value. */
const sentBack = (setCookie: string | undefined) => cookie.parse(setCookie!.split(';')[0]!);

describe('PositionCookies', () => {
  it('turns a reported position into a signed cookie and back into the consistency header', () => {
    const setCookie = positions.answer('projects=120/118', false).setCookies[0];
    expect(setCookie).toMatch(/^shiplog\.after\.projects=120%2F118\.[^;]+; Path=\/api; HttpOnly; SameSite=Lax$/);
    expect(positions.after(sentBack(setCookie))).toBe('projects=120/118');
    expect(positions.answer('projects=120/118', true).setCookies[0]).toMatch(/; Secure/);
  });

  it('sends one entry per source', () => {
    const cookies = {
      ...sentBack(positions.answer('projects=120/118', false).setCookies[0]),
      ...sentBack(positions.answer('identity=7/7', false).setCookies[0]),
      'shiplog.sid': 's:whatever',
    };
    expect(positions.after(cookies)?.split(',').sort()).toEqual(['identity=7/7', 'projects=120/118']);
  });

  it('sets a cookie for each source a write reached', () => {
    const setCookies = positions.answer('projects=120/118,reminders=9/9', false).setCookies;
    expect(setCookies).toHaveLength(2);
    const cookies = Object.assign({}, ...setCookies.map(sentBack));
    expect(positions.after(cookies)?.split(',').sort()).toEqual(['projects=120/118', 'reminders=9/9']);
  });

  it('ignores cookies it did not sign, unknown sources and malformed positions', () => {
    const valid = sentBack(positions.answer('projects=120/118', false).setCookies[0])['shiplog.after.projects']!;
    expect(positions.after({ 'shiplog.after.projects': `${valid.slice(0, -2)}xx` })).toBeUndefined();
    expect(positions.after({ 'shiplog.after.projects': '999/999' })).toBeUndefined();
    expect(positions.after({ 'shiplog.after.nosuch': valid })).toBeUndefined();
    expect(
      new PositionCookies('another-secret-of-at-least-32-characters!').after(
        sentBack(`shiplog.after.projects=${valid}`),
      ),
    ).toBeUndefined();
    for (const reported of [undefined, ['projects=1/1'], 'projects', 'projects=1', 'nosuch=1/1', 'projects=1/1=2'])
      expect(positions.answer(reported, false).setCookies).toEqual([]);
  });

  it('names a write’s positions in a header, and reads the newest a client sends back beside its cookies', () => {
    const header = positions.answer('projects=120/118,reminders=9/9', false).header!;
    expect(header).toMatch(/^projects=120\/118\.[^,=]+,reminders=9\/9\.[^,=]+$/);
    const older = sentBack(positions.answer('projects=100/100', false).setCookies[0]);
    // The services keep the later of a source named twice (parsePositions).
    expect(positions.after(older, header)).toBe('projects=100/100,projects=120/118,reminders=9/9');
    expect(positions.after({}, header)).toBe('projects=120/118,reminders=9/9');
    expect(positions.answer(undefined, false).header).toBeUndefined();
    expect(positions.answer('nosuch=1/1', false).header).toBeUndefined();
  });

  it('ignores header entries it did not sign, unknown sources, and more entries than there are sources', () => {
    const signed = positions.answer('projects=120/118', false).header!.split('=')[1]!;
    expect(positions.after({}, 'projects=999/999')).toBeUndefined();
    expect(positions.after({}, `projects=${signed.slice(0, -2)}xx`)).toBeUndefined();
    expect(positions.after({}, `nosuch=${signed}`)).toBeUndefined();
    expect(positions.after({}, `projects=${signed}=extra`)).toBeUndefined();
    expect(positions.after({}, [`projects=${signed}`])).toBeUndefined();
    const many = Array.from({ length: 50 }, () => 'x=y').join(',');
    expect(positions.after({}, `${many},projects=${signed}`)).toBeUndefined();
  });

  it('clears every position cookie at sign-out', () => {
    const cleared = positions.clearCookies({ 'shiplog.after.projects': 'x', 'shiplog.sid': 'y' });
    expect(cleared).toEqual([
      'shiplog.after.projects=; Path=/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    ]);
  });
});
