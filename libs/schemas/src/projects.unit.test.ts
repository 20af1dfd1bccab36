import { describe, expect, it } from 'vitest';
import { arrangeProjects, normalizeSocialLink, normalizeSocialLinks, type SocialLinkKey } from './project-values.ts';

const p = (name: string, status: string, createdAt: string, description: string | null = null) => ({
  name,
  status,
  createdAt,
  description,
});
const projects = [
  p('beta', 'development', '2026-01-02T00:00:00.000Z', 'A Rocket'),
  p('Alpha', 'planning', '2026-01-03T00:00:00.000Z'),
  p('gamma', 'deployed', '2026-01-01T00:00:00.000Z'),
] as Parameters<typeof arrangeProjects>[0];

describe('arrangeProjects', () => {
  it('sorts newest, oldest and by name without regard to case', () => {
    expect(arrangeProjects(projects, { sort: 'newest' }).map((x) => x.name)).toEqual(['Alpha', 'beta', 'gamma']);
    expect(arrangeProjects(projects, { sort: 'oldest' }).map((x) => x.name)).toEqual(['gamma', 'beta', 'Alpha']);
    expect(arrangeProjects(projects, { sort: 'name_asc' }).map((x) => x.name)).toEqual(['Alpha', 'beta', 'gamma']);
    expect(arrangeProjects(projects, { sort: 'name_desc' }).map((x) => x.name)).toEqual(['gamma', 'beta', 'Alpha']);
  });

  it('filters by status and searches name and description', () => {
    expect(arrangeProjects(projects, { filter: 'deployed' }).map((x) => x.name)).toEqual(['gamma']);
    expect(arrangeProjects(projects, { search: 'rocket' }).map((x) => x.name)).toEqual(['beta']);
    expect(arrangeProjects(projects, { search: 'ALP' }).map((x) => x.name)).toEqual(['Alpha']);
    expect(arrangeProjects(projects, { filter: 'blocked' })).toEqual([]);
  });
});

describe('social links', () => {
  it('prepends https://, and turns handles into profile URLs', () => {
    expect(normalizeSocialLink('github', 'github.com/ada')).toBe('https://github.com/ada');
    expect(normalizeSocialLink('website', 'http://ada.dev')).toBe('http://ada.dev');
    expect(normalizeSocialLink('twitter', '@ada')).toBe('https://twitter.com/ada');
    expect(normalizeSocialLink('instagram', 'ada')).toBe('https://instagram.com/ada');
    expect(normalizeSocialLink('twitter', 'x.com/ada')).toBe('https://x.com/ada');
    // Handles as people type them, and links to the sites, with and without a scheme.
    const table: [SocialLinkKey, string, string][] = [
      ['instagram', '@pixelforge.art', 'https://instagram.com/pixelforge.art'],
      ['instagram', '@pixel_forge', 'https://instagram.com/pixel_forge'],
      ['instagram', 'pixel_forge', 'https://instagram.com/pixel_forge'],
      ['instagram', ' @@pixel.forge ', 'https://instagram.com/pixel.forge'],
      ['instagram', 'instagram.com/pixel.forge', 'https://instagram.com/pixel.forge'],
      ['instagram', 'https://www.instagram.com/pixel.forge/', 'https://www.instagram.com/pixel.forge/'],
      ['twitter', '@ada_dev', 'https://twitter.com/ada_dev'],
      ['twitter', 'twitter.com/ada', 'https://twitter.com/ada'],
      ['twitter', 'http://x.com/ada', 'http://x.com/ada'],
      ['twitter', '@x.com/ada', 'https://x.com/ada'],
      ['website', '@ada.dev', 'https://ada.dev'],
    ];
    for (const [key, typed, url] of table) expect(normalizeSocialLink(key, typed), `${key} ${typed}`).toBe(url);
    expect(normalizeSocialLinks({ github: '  ', docs: 'docs.ada.dev', bogus: 'x' })).toEqual({
      docs: 'https://docs.ada.dev',
    });
  });
});
