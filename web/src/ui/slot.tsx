import { cloneElement, isValidElement, type ReactElement, type ReactNode, type Ref } from 'react';

type Props = Record<string, unknown> & { children?: ReactNode; ref?: Ref<unknown> };

/** Both refs, as one. */
function composeRefs(...refs: (Ref<unknown> | undefined)[]): Ref<unknown> {
  return (node: unknown) => {
    for (const ref of refs) {
      if (typeof ref === 'function') ref(node);
      else if (ref) (ref as { current: unknown }).current = node;
    }
  };
}

/**
 * Renders its one child with these props merged into the child's (`asChild`), as Radix's Slot does:
 * the child's props win, but both event handlers run (the child's first), class names and styles
 * join, and both refs are set. Our own few lines: Radix's Slot put 2 KB gzipped into every page's
 * first load through Button (decision 023); the Radix controls keep theirs.
 */
export function Slot({ children, ref, ...props }: Props) {
  if (!isValidElement(children)) return null;
  const child = children as ReactElement<Props>;
  const merged: Props = { ...props, ...child.props };
  for (const [name, value] of Object.entries(props)) {
    const own = child.props[name];
    if (/^on[A-Z]/.test(name) && typeof value === 'function' && typeof own === 'function') {
      merged[name] = (...args: unknown[]) => {
        const result = own(...args);
        value(...args);
        return result;
      };
    } else if (name === 'style' && own) merged.style = { ...(value as object), ...(own as object) };
    else if (name === 'className' && own) merged.className = [value, own].filter(Boolean).join(' ');
  }
  const childRef = child.props.ref;
  if (ref || childRef) merged.ref = ref && childRef ? composeRefs(ref, childRef) : (ref ?? childRef);
  return cloneElement(child, merged);
}
