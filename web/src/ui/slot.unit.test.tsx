import { createRef, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button } from './button';
import { Slot } from './slot';

describe('Slot', () => {
  it('gives its child the props, the child’s own winning, class names joined, both handlers run', () => {
    const calls: string[] = [];
    const element = Slot({
      className: 'from-slot',
      title: 'slot',
      'aria-label': 'Open',
      onClick: () => calls.push('slot'),
      children: (
        <a href="/x" className="own" title="child" onClick={() => calls.push('child')}>
          Go
        </a>
      ),
    }) as ReactElement<Record<string, unknown>>;
    expect(element.type).toBe('a');
    expect(element.props).toMatchObject({
      href: '/x',
      className: 'from-slot own',
      title: 'child',
      'aria-label': 'Open',
    });
    (element.props.onClick as () => void)();
    expect(calls).toEqual(['child', 'slot']);
  });

  it('sets both refs', () => {
    const outer = createRef<unknown>();
    const inner = createRef<HTMLSpanElement>();
    const element = Slot({ ref: outer, children: <span ref={inner} /> }) as ReactElement<{
      ref: (node: unknown) => void;
    }>;
    element.props.ref('node');
    expect([outer.current, inner.current as unknown]).toEqual(['node', 'node']);
  });

  it('lets a Button render as its child, a link, with the button’s classes', () => {
    const html = renderToStaticMarkup(
      <Button asChild variant="outline">
        <a href="/projects">Projects</a>
      </Button>,
    );
    expect(html).toMatch(/^<a href="\/projects" class="[^"]*border-input[^"]*">Projects<\/a>$/);
  });
});
