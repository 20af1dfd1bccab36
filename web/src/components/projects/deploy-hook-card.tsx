import { useQuery } from '@tanstack/react-query';
import { Trash2, Webhook } from 'lucide-react';
import { useState } from 'react';
import { deployHookQuery, useCreateDeployHook, useDeleteDeployHook } from '../../hooks/use-deploy-hook';
import { SecretLinkStatus } from '../secret-link';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

const GENERIC_EXAMPLE = `{
  "deploymentId": "run-1842",
  "status": "success",
  "environment": "production",
  "version": "1.4.0",
  "url": "https://example.com",
  "notes": "What changed"
}`;

/**
 * The project's deploy webhook: a secret URL that Vercel, Netlify or any CI posts to when it deploys,
 * recording the deployment here. Each deployment is recorded once, however often it is delivered.
 */
export function DeployHookCard({ projectId }: { projectId: string }) {
  const { data } = useQuery(deployHookQuery(projectId));
  const create = useCreateDeployHook(projectId);
  const remove = useDeleteDeployHook(projectId);
  const [made, setMade] = useState<string | null>(null);
  const createUrl = () => create.mutate(undefined, { onSuccess: ({ url }) => setMade(url) });
  const turnOff = () => remove.mutate(undefined, { onSuccess: () => setMade(null) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Deploy Webhook</CardTitle>
        <CardDescription>Record deployments from Vercel, Netlify or any CI that can send a POST.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {data?.active ? (
          <>
            <SecretLinkStatus
              made={made}
              state={data}
              label="Deploy webhook URL"
              copyLabel="Copy deploy webhook URL"
              copied="Paste it into your platform's webhook settings."
              keepPrivate="Keep this URL private: anyone with it can record deployments on this project."
              mono
            />
            <details className="rounded-lg border p-3 text-sm">
              <summary className="cursor-pointer font-medium">How to use it</summary>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
                <li>
                  Vercel: Settings › Webhooks, events Deployment Created, Deployment Succeeded and Deployment Error.
                </li>
                <li>
                  Netlify: Notifications › Deploy notifications › Outgoing webhook, for started, succeeded and failed
                  deploys.
                </li>
                <li>
                  Anything else: POST JSON like this, with status started, success or failed; each is recorded once per
                  deploymentId. A production start holds this project's monitor alerts until its end.
                </li>
              </ul>
              <pre className="mt-2 overflow-x-auto rounded bg-muted p-2 text-xs">{GENERIC_EXAMPLE}</pre>
            </details>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" disabled={create.isPending} onClick={createUrl}>
                New URL
              </Button>
              <Button variant="ghost" size="sm" disabled={remove.isPending} onClick={turnOff}>
                <Trash2 /> Turn off
              </Button>
            </div>
          </>
        ) : (
          <Button variant="outline" disabled={create.isPending} onClick={createUrl}>
            <Webhook /> Create webhook URL
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
