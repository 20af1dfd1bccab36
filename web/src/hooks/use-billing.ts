import { useMutation } from '@tanstack/react-query';
import { toast } from '../components/ui/toast';
import { apiRequest } from '../lib/api';

/** Checkout and the customer portal: the browser goes to the URL the provider returned. */
export function useCheckout() {
  return useMutation({
    mutationFn: (priceId: string) =>
      apiRequest<{ url: string }>('POST', '/api/stripe/create-checkout-session', { priceId, mode: 'subscription' }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) =>
      toast({ title: 'Failed to create checkout session', description: error.message, variant: 'destructive' }),
  });
}

export function useCustomerPortal() {
  return useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', '/api/stripe/create-customer-portal'),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) =>
      toast({ title: 'Failed to open customer portal', description: error.message, variant: 'destructive' }),
  });
}
