import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider as UrqlProvider } from 'urql';
import { TooltipProvider } from './components/ui/tooltip';
import { graphqlClient } from './lib/graphql';
import { createQueryClient } from './lib/queries';
import { ThemeProvider } from './lib/theme';
import { createAppRouter } from './router';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <UrqlProvider value={graphqlClient}>
          <TooltipProvider delayDuration={200}>
            <RouterProvider router={router} />
          </TooltipProvider>
        </UrqlProvider>
      </QueryClientProvider>
    </ThemeProvider>
  </StrictMode>,
);
