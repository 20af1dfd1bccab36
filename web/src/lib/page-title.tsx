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
