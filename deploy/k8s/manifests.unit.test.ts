/**
 * The Kubernetes manifests stay valid and true to the code: every document has the fields its kind
 * needs, each process's command is a file in this repository, probes are on /readyz and /healthz,
 * Services and the ConfigMap's URLs reach a container port, and every process has an autoscaler from
 * two replicas (a service's relay and consumers run on its elected leader only: docs/scaling.md).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const dir = import.meta.dirname;
const root = join(dir, '..', '..');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  // biome-ignore lint/suspicious/noExplicitAny: a manifest's spec is whatever its kind says; each check reads the part it needs
  spec?: any;
  data?: Record<string, string>;
}

const manifests: { file: string; doc: Manifest }[] = readdirSync(dir)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((parsed) => {
      if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`);
      return { file, doc: parsed.toJS() as Manifest };
    }),
  );
const ofKind = (kind: string) => manifests.filter((m) => m.doc.kind === kind).map((m) => m.doc);
const deployments = ofKind('Deployment');
const containerOf = (deployment: Manifest) => deployment.spec.template.spec.containers[0];
const portOf = (deployment: Manifest): number => containerOf(deployment).ports[0].containerPort;

const apiVersions: Record<string, string> = {
  Namespace: 'v1',
  ConfigMap: 'v1',
  Service: 'v1',
  Deployment: 'apps/v1',
  Ingress: 'networking.k8s.io/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
};

describe('deploy/k8s', () => {
  it('holds only kinds it knows, each with its apiVersion, a name, and the shiplog namespace', () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const { file, doc } of manifests) {
      expect(apiVersions[doc.kind], `${file}: kind ${doc.kind}`).toBeDefined();
      expect(doc.apiVersion, `${file}: ${doc.kind} ${doc.metadata?.name}`).toBe(apiVersions[doc.kind]);
      expect(doc.metadata.name).toMatch(/^[a-z0-9-]+$/);
      if (doc.kind !== 'Namespace') expect(doc.metadata.namespace, `${file}: ${doc.metadata.name}`).toBe('shiplog');
    }
  });

  it('runs every process of the repository, each from a file that exists, with probes on /readyz and /healthz', () => {
    const commands = deployments.map((d) => containerOf(d).command.at(-1));
    expect(commands.sort()).toEqual(
      [
        'gateway/src/main.ts',
        ...readdirSync(join(root, 'services')).map((service) => `services/${service}/src/main.ts`),
      ].sort(),
    );
    for (const deployment of deployments) {
      const container = containerOf(deployment);
      expect(existsSync(join(root, container.command.at(-1)))).toBe(true);
      expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: portOf(deployment) });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: portOf(deployment) });
      expect(container.resources.requests.cpu, `${deployment.metadata.name} needs a CPU request`).toBeDefined();
    }
  });

  it('gives each Deployment a Service on its container port, and the ConfigMap points at them', () => {
    const services = ofKind('Service');
    for (const deployment of deployments) {
      const service = services.find((s) => s.metadata.name === deployment.metadata.name);
      expect(service?.spec.selector, deployment.metadata.name).toEqual(deployment.spec.template.metadata.labels);
      expect(service?.spec.ports[0].targetPort).toBe(portOf(deployment));
    }
    const config = ofKind('ConfigMap')[0]?.data ?? {};
    const urls = Object.entries(config).filter(([key]) => /^[A-Z]+_URL$/.test(key) && key !== 'APP_URL');
    for (const [key, value] of urls.filter(
      ([key]) => !['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'EVENTSTORE_URL'].includes(key),
    )) {
      const url = new URL(value);
      const service = services.find((s) => s.metadata.name === url.hostname);
      expect(service, `${key} names no Service`).toBeDefined();
      expect(service?.spec.ports[0].port, key).toBe(Number(url.port));
    }
  });

  it('autoscales every process on CPU, from two replicas: the services elect a leader for their relay and consumers', () => {
    const autoscalers = ofKind('HorizontalPodAutoscaler');
    expect(autoscalers.map((a) => a.spec.scaleTargetRef.name).sort()).toEqual(
      deployments.map((d) => d.metadata.name).sort(),
    );
    for (const autoscaler of autoscalers) {
      expect(autoscaler.spec.scaleTargetRef.kind).toBe('Deployment');
      expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(autoscaler.spec.maxReplicas).toBeGreaterThanOrEqual(autoscaler.spec.minReplicas);
      expect(autoscaler.spec.metrics[0].resource.name).toBe('cpu');
    }
    for (const deployment of deployments) {
      expect(deployment.spec.replicas, deployment.metadata.name).toBe(2);
      // A rolling update is safe: a new replica waits for the lock the old one holds until it stops.
      expect(deployment.spec.strategy?.type, deployment.metadata.name).not.toBe('Recreate');
    }
  });
});
