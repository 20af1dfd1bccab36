import { isSubscribed } from '@shiplog/schemas';
import type { QueryClient } from '@tanstack/react-query';
import { keys, userQuery } from '../../lib/queries';
import { toast } from '../../ui/toast';

/**
 * Back from the payment provider (the dashboard's `?success=true` or `?cancelled=true`, loaded only
 * then): one toast. After a payment the plan is read again at once, and again each second until
 * Stripe's webhook has made it active (the redirect and the webhook race), so Quick Update unlocks
 * without a reload.
 */
export async function paymentReturn(back: 'paid' | 'cancelled', queryClient: QueryClient): Promise<void> {
  if (back === 'cancelled') {
    toast({
      title: 'Payment Cancelled',
      description: 'Your payment was cancelled. You can retry anytime.',
      variant: 'destructive',
    });
    return;
  }
  toast({
    title: 'Payment Successful!',
    description: 'Your subscription is active. Pro features are now available.',
  });
  for (let attempt = 0; attempt < 20; attempt++) {
    const user = await queryClient.fetchQuery({ ...userQuery, staleTime: 0 }).catch(() => null);
    if (isSubscribed(user?.subscriptionStatus)) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  await queryClient.invalidateQueries({ queryKey: keys.subscription });
}
