import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { appContentSecurityPolicy, securityHeaders } from './security-headers.ts';

function headersSet(https: boolean): Map<string, string> {
  const set = new Map<string, string>();
  securityHeaders({ https })({
    setHeader: (name: string, value: string) => set.set(name, value),
  } as unknown as ServerResponse);
  return set;
}

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('security headers', () => {
  it('asks for HTTPS only when the public address is HTTPS', () => {
    expect(headersSet(true).get('Strict-Transport-Security')).toBe('max-age=31536000');
    expect(headersSet(false).has('Strict-Transport-Security')).toBe(false);
    expect(headersSet(false).get('X-Frame-Options')).toBe('DENY');
  });

  it("allows each of the page's inline scripts by hash, and no script that has a src", () => {
    const first = "\n  document.documentElement.classList.add('dark');\n";
    const second = 'window.__zod_globalConfig = { jitless: true };';
    const policy = appContentSecurityPolicy(
      `<head><script>${first}</script><script type="text/javascript">${second}</script>` +
        '<script type="module" crossorigin src="/assets/index.js"></script></head>',
    );
    expect(policy).toContain(`script-src 'self' ${sha(first)} ${sha(second)};`);
    expect(policy.match(/sha256-/g)).toHaveLength(2);
  });
});
