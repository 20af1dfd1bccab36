import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

/** Pages whose header title depends on data (e.g. 'Edit: {project name}') set it here. */
const PageTitleContext = createContext<{ title: string | null; setTitle: (title: string | null) => void }>({
  title: null,
  setTitle: () => {},
});

export function PageTitleProvider({ children }: { children: ReactNode }) {
  const [title, setTitle] = useState<string | null>(null);
  return <PageTitleContext value={{ title, setTitle }}>{children}</PageTitleContext>;
}

export function usePageTitleOverride(): string | null {
  return useContext(PageTitleContext).title;
}

export function usePageTitle(title: string | null | undefined) {
  const { setTitle } = useContext(PageTitleContext);
  useEffect(() => {
    setTitle(title ?? null);
    return () => setTitle(null);
  }, [title, setTitle]);
}

/**
 * The tab's title: the page's, then the app's ("Dashboard · Shiplog"), so history, bookmarks and
 * screen readers can tell the pages apart.
 */
export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    document.title = title && title !== 'Shiplog' ? `${title} · Shiplog` : 'Shiplog';
  }, [title]);
}
