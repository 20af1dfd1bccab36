import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { earlySignedIn } from './lib/api';
import { createQueryClient } from './lib/queries';
import { ThemeProvider } from './lib/theme';
import { createAppRouter } from './router';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

// A signed-in visitor's page starts downloading as soon as the answer to index.html's early ask for
// the current user starts to arrive, not after the router has started and rendered (issue 19: LCP).
void earlySignedIn()?.then((signedIn) => {
  if (signedIn)
    for (const route of router.getMatchedRoutes(window.location.pathname)[0]) void router.loadRouteChunk(route);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ThemeProvider>
  </StrictMode>,
);
