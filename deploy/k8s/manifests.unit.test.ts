/**
 * The Kubernetes layouts (built with kustomize, as `kubectl apply -k` applies them) and docker-compose.yml stay valid, true to the code and safe on a network:
 * every document has the fields its kind needs, each process's command is a file in this repository,
 * probes are on /readyz and /healthz, Services and the ConfigMap's URLs reach a container port, every
 * process has an autoscaler from two replicas (a service's relay and consumers run on its elected
 * leader only: docs/scaling.md) and a disruption budget; every pod is locked down, every image pinned,
 * network policies deny by default, the Ingress is TLS only, and no store is published to the network.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceNames } from '@shiplog/service-kit';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { oneProcessOptions } from '../../scripts/app-processes.ts';
import { build, buildLayout, k8sDir, type Layout, layouts, type Manifest } from './layouts.ts';

const dir = k8sDir;
const root = join(dir, '..', '..');

const built = Object.fromEntries(layouts.map((layout) => [layout, buildLayout(layout)])) as Record<Layout, Manifest[]>;
const kindIn = (docs: Manifest[], kind: string) => docs.filter((doc) => doc.kind === kind);
const containerOf = (deployment: Manifest) => deployment.spec.template.spec.containers[0];
const portOf = (deployment: Manifest): number => containerOf(deployment).ports[0].containerPort;

const apiVersions: Record<string, string> = {
  Namespace: 'v1',
  ConfigMap: 'v1',
  Service: 'v1',
  Deployment: 'apps/v1',
  Ingress: 'networking.k8s.io/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  PodDisruptionBudget: 'policy/v1',
  NetworkPolicy: 'networking.k8s.io/v1',
};

/** Pinned: a version tag (or a digest), never `latest` or no tag at all. */
const pinned = (image: string) => /@sha256:[0-9a-f]{64}$|:(?!latest$)[\w][\w.-]*$/.test(image.split('/').at(-1)!);

describe('deploy/k8s: what an operator sets once', () => {
  it('builds the small layout unless told otherwise', () => {
    expect(build(dir)).toEqual(built.small);
  });

  it.each(layouts)(
    '%s: puts every resource in the namespace, every container on the image and the Ingress on the host it is given',
    (layout) => {
      const docs = buildLayout(layout, {
        namespace: 'tracker',
        image: { newName: 'ghcr.io/me/shiplog', newTag: '2.0.1' },
        appUrl: 'https://tracker.example.org',
      });
      for (const doc of docs)
        if (doc.kind === 'Namespace') expect(doc.metadata.name).toBe('tracker');
        else expect(doc.metadata.namespace, `${doc.kind} ${doc.metadata.name}`).toBe('tracker');
      for (const deployment of kindIn(docs, 'Deployment'))
        for (const container of deployment.spec.template.spec.containers)
          expect(container.image).toBe('ghcr.io/me/shiplog:2.0.1');
      const [ingress] = kindIn(docs, 'Ingress');
      expect(ingress?.spec.rules.map((rule: { host: string }) => rule.host)).toEqual(['tracker.example.org']);
      expect(ingress?.spec.tls[0].hosts).toEqual(['tracker.example.org']);
      expect(kindIn(docs, 'ConfigMap')[0]?.data?.APP_URL).toBe('https://tracker.example.org');
      expect(JSON.stringify(docs)).not.toContain('shiplog.example.com');
    },
  );

  it('lets only Shiplog into the stores’ namespace, by a policy applied beside them', () => {
    const stores = parse(readFileSync(join(dir, 'stores-network-policy.yaml'), 'utf8')) as Manifest;
    expect(stores.metadata.namespace).toBe('shiplog-data');
    expect(stores.spec.ingress.flatMap((rule: { from: unknown[] }) => rule.from)).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'shiplog' } } },
    ]);
  });
});

describe.each(layouts)('deploy/k8s, the %s layout', (layout) => {
  const manifests = built[layout];
  const ofKind = (kind: string) => kindIn(manifests, kind);
  const deployments = ofKind('Deployment');

  it('holds only kinds it knows, each with its apiVersion, a name, and the shiplog namespace', () => {
    expect(manifests.length).toBeGreaterThan(layout === 'ha' ? 30 : 6);
    for (const doc of manifests) {
      expect(apiVersions[doc.kind], `kind ${doc.kind}`).toBeDefined();
      expect(doc.apiVersion, `${doc.kind} ${doc.metadata?.name}`).toBe(apiVersions[doc.kind]);
      expect(doc.metadata.name).toMatch(/^[a-z0-9-]+$/);
      if (doc.kind !== 'Namespace') expect(doc.metadata.namespace, `${doc.kind} ${doc.metadata.name}`).toBe('shiplog');
    }
  });

  it('runs every process of the repository (or all in one), each from a file that exists, with probes on /readyz and /healthz', () => {
    const commands = deployments.map((d) => containerOf(d).command.at(-1));
    expect(commands.sort()).toEqual(
      layout === 'small'
        ? ['scripts/one-process.ts']
        : ['gateway/src/main.ts', ...serviceNames.map((service) => `services/${service}/src/main.ts`)].sort(),
    );
    for (const deployment of deployments) {
      const container = containerOf(deployment);
      expect(existsSync(join(root, container.command.at(-1)))).toBe(true);
      // The one process with the options `npm start` gives it.
      if (layout === 'small')
        expect(container.command).toEqual(['node', ...oneProcessOptions, 'scripts/one-process.ts']);
      expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: portOf(deployment) });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: portOf(deployment) });
      // Migrations run at start: liveness waits for a startup probe that allows them minutes.
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: portOf(deployment) });
      expect(container.startupProbe.periodSeconds * container.startupProbe.failureThreshold).toBeGreaterThanOrEqual(
        300,
      );
      expect(container.resources.requests.cpu, `${deployment.metadata.name} needs a CPU request`).toBeDefined();
    }
  });

  it('gives each Deployment a Service on its container port, and the ConfigMap points at them', () => {
    const services = ofKind('Service');
    for (const deployment of deployments) {
      const service = services.find((s) => s.metadata.name === deployment.metadata.name);
      expect(service?.spec.selector, deployment.metadata.name).toEqual(deployment.spec.selector.matchLabels);
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
    if (layout === 'small') {
      // One pod, its count here; its services listen on its loopback only.
      expect(autoscalers).toEqual([]);
      expect(deployments.map((d) => d.spec.replicas)).toEqual([1]);
      expect(ofKind('ConfigMap')[0]?.data?.SERVICE_HOST).toBeUndefined();
      return;
    }
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
      // The autoscaler owns the count: a count here would reset it at every apply.
      expect(deployment.spec.replicas, deployment.metadata.name).toBeUndefined();
      // A rolling update is safe: a new replica waits for the lock the old one holds until it stops.
      expect(deployment.spec.strategy?.type, deployment.metadata.name).not.toBe('Recreate');
    }
  });

  it('locks every pod down: non-root, read-only root filesystem, no escalation, no capabilities, a pinned image', () => {
    for (const deployment of deployments) {
      const name = deployment.metadata.name;
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext?.runAsNonRoot, `${name}: runAsNonRoot`).toBe(true);
      expect(pod.securityContext?.runAsUser, `${name}: runAsUser`).toBeGreaterThan(0);
      expect(pod.automountServiceAccountToken, `${name}: service-account token`).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext?.readOnlyRootFilesystem, `${name}: read-only root`).toBe(true);
        expect(container.securityContext?.allowPrivilegeEscalation, `${name}: escalation`).toBe(false);
        expect(container.securityContext?.capabilities?.drop, `${name}: capabilities`).toContain('ALL');
        expect(pinned(container.image), `${name}: image ${container.image}`).toBe(true);
      }
    }
    expect(pinned('shiplog:latest')).toBe(false);
    expect(pinned('shiplog')).toBe(false);
    expect(pinned('registry.example.com:5000/shiplog')).toBe(false);
    expect(pinned('registry.example.com:5000/shiplog:1.4.0')).toBe(true);
  });

  it('keeps one replica of every autoscaled process up through a disruption', () => {
    const budgets = ofKind('PodDisruptionBudget');
    for (const autoscaler of ofKind('HorizontalPodAutoscaler').filter((a) => a.spec.minReplicas >= 2)) {
      const deployment = deployments.find((d) => d.metadata.name === autoscaler.spec.scaleTargetRef.name)!;
      const budget = budgets.find((b) => b.metadata.name === deployment.metadata.name);
      expect(budget?.spec.selector.matchLabels, deployment.metadata.name).toEqual(deployment.spec.selector.matchLabels);
      expect(budget?.spec.minAvailable ?? 0, deployment.metadata.name).toBeGreaterThanOrEqual(1);
    }
  });

  it('denies by default: only the ingress controller reaches the gateway, only Shiplog pods the services and stores', () => {
    const policies = ofKind('NetworkPolicy');
    const deny = policies.find(
      (p) =>
        p.metadata.namespace === 'shiplog' &&
        Object.keys(p.spec.podSelector).length === 0 &&
        !p.spec.ingress &&
        !p.spec.egress,
    );
    expect(deny?.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    const tierOf = (d: Manifest) => d.spec.template.metadata.labels['shiplog.dev/tier'];
    for (const d of deployments) {
      const tier = tierOf(d);
      const admitting = policies.filter(
        (p) => p.spec.ingress && p.spec.podSelector.matchLabels?.['shiplog.dev/tier'] === tier,
      );
      expect(admitting.length, `${d.metadata.name} is reachable by some policy`).toBeGreaterThan(0);
      for (const from of admitting.flatMap((p) => p.spec.ingress.flatMap((rule: { from: unknown[] }) => rule.from)))
        if (tier === 'service')
          // A service takes calls from Shiplog's own pods only.
          expect(from).toMatchObject({
            podSelector: { matchLabels: { 'shiplog.dev/tier': expect.stringMatching(/^(gateway|service)$/) } },
          });
    }
  });

  it('admits every container on the port it listens on, and every Service reaches that port', () => {
    const policies = ofKind('NetworkPolicy').filter((p) => p.metadata.namespace === 'shiplog');
    const selects = (selector: { matchLabels?: Record<string, string> }, labels: Record<string, string>) =>
      Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
    const services = ofKind('Service');
    for (const deployment of deployments) {
      const name = deployment.metadata.name;
      const labels = deployment.spec.template.metadata.labels;
      const ports: { name?: string; containerPort: number }[] = containerOf(deployment).ports;
      // What the policies that select this pod let in: a rule without ports admits every port.
      const rules = policies
        .filter((p) => p.spec.ingress && selects(p.spec.podSelector, labels))
        .flatMap((p) => p.spec.ingress as { ports?: { port: number | string }[] }[]);
      for (const port of ports) {
        const admitted = rules.some(
          (rule) => !rule.ports || rule.ports.some((p) => p.port === port.containerPort || p.port === port.name),
        );
        expect(admitted, `${name}: nothing admits its port ${port.containerPort}`).toBe(true);
      }
      // Probes ask the port the container listens on.
      const container = containerOf(deployment);
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
        expect(container[probe].httpGet.port, `${name}: ${probe}`).toBe(ports[0]!.containerPort);
      const service = services.find((s) => s.metadata.name === name);
      for (const servicePort of service?.spec.ports ?? [])
        expect(
          ports.some((p) => p.containerPort === servicePort.targetPort || p.name === servicePort.targetPort),
          `${name}: its Service's targetPort ${servicePort.targetPort}`,
        ).toBe(true);
    }
    // The check sees a port left out: a policy that lists numbers, without a new service's.
    const listed = [{ ports: [{ port: 4101 }, { port: 4102 }] }];
    expect(listed.some((rule) => rule.ports.some((p) => p.port === 4108))).toBe(false);
  });

  it('serves the Ingress over TLS only', () => {
    for (const ingress of ofKind('Ingress')) {
      const hosts = ingress.spec.rules.map((rule: { host: string }) => rule.host);
      expect(ingress.spec.tls?.flatMap((t: { hosts: string[] }) => t.hosts).sort()).toEqual(hosts.sort());
      expect(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/force-ssl-redirect']).toBe('true');
    }
  });

  it('keeps the store URLs, which carry passwords, out of the ConfigMap', () => {
    const config = ofKind('ConfigMap')[0]?.data ?? {};
    for (const key of secretKeys) expect(config[key], key).toBeUndefined();
    expect(Object.keys(config).filter((key) => looksSecret.test(key))).toEqual([]);
  });

  it('hands each process only the secrets its configuration reads, each by name, the required ones not optional', async () => {
    const schemas: Record<string, { shape: Record<string, unknown> }> = {
      gateway: (await import('../../gateway/src/env.ts')).gatewayEnv,
    };
    for (const service of serviceNames)
      schemas[service] = (await import(`../../services/${service}/src/env.ts`))[`${service}Env`];
    // The one process reads what all of them read.
    schemas.shiplog = { shape: Object.assign({}, ...Object.values(schemas).map((schema) => schema.shape)) };
    const listed = readFileSync(join(dir, 'secrets', 'external-secret.yaml'), 'utf8');
    for (const deployment of deployments) {
      const name = deployment.metadata.name;
      const container = containerOf(deployment);
      const reads = Object.keys(schemas[name]!.shape);
      // Anything that looks secret is kept as one.
      for (const key of reads.filter((key) => looksSecret.test(key)))
        expect(secretKeys, `${name}: ${key}`).toContain(key);
      expect(
        container.envFrom.filter((from: { secretRef?: unknown }) => from.secretRef),
        name,
      ).toEqual([]);
      const handed = container.env.filter((e: { valueFrom?: unknown }) => e.valueFrom);
      expect(handed.map((e: { name: string }) => e.name).sort(), name).toEqual(
        reads.filter((key) => secretKeys.has(key)).sort(),
      );
      for (const { name: key, valueFrom } of handed) {
        expect(valueFrom.secretKeyRef, `${name}: ${key}`).toEqual({
          name: 'shiplog-secrets',
          key,
          ...(requiredSecrets.has(key) ? {} : { optional: true }),
        });
        expect(listed, `${key} is listed where the operator keeps the secrets`).toContain(key);
      }
    }
  });
});

/** What shiplog-secrets holds (secrets/external-secret.yaml): keys, passwords, and the URLs that carry them. */
const secretKeys = new Set([
  'SESSION_SECRET',
  'INTERNAL_TOKEN_SECRET',
  'VAULT_KEY_SECRET',
  'VAULT_KEY_SECRET_PREVIOUS',
  'INTEGRATION_KEY_SECRET',
  'GITHUB_APP_CLIENT_SECRET',
  'GITHUB_APP_WEBHOOK_SECRET',
  'GITHUB_APP_PRIVATE_KEY',
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'NATS_URL',
  'REDIS_URL',
  'EVENTSTORE_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'OPENAI_API_KEY',
  'SMTP_URL',
  'VAPID_PRIVATE_KEY',
  'METRICS_TOKEN',
]);
/** Those a production process refuses to start without; the others turn a feature on. */
const requiredSecrets = new Set([
  'SESSION_SECRET',
  'INTERNAL_TOKEN_SECRET',
  'VAULT_KEY_SECRET',
  'INTEGRATION_KEY_SECRET',
  'DATABASE_URL',
  'NATS_URL',
  'REDIS_URL',
]);
const looksSecret = /SECRET|PASSWORD|_KEY$|_TOKEN$/;

describe('docker-compose.yml, and deploy/compose/eventstore.yml over it', () => {
  interface Compose {
    services: Record<
      string,
      {
        image?: string;
        ports?: string[];
        command?: string[];
        environment?: Record<string, string>;
        profiles?: string[];
        healthcheck?: { test: string[] };
        depends_on?: Record<string, { condition: string }> | string[];
      }
    >;
  }
  const read = (file: string) => parse(readFileSync(join(root, file), 'utf8'), { merge: true }) as Compose;
  const base = read('docker-compose.yml');
  const kurrent = read('deploy/compose/eventstore.yml');
  // What `docker compose -f docker-compose.yml -f deploy/compose/eventstore.yml` runs: environments and
  // dependencies merged per key, as compose merges them.
  const compose: Compose = { services: { ...base.services } };
  for (const [name, over] of Object.entries(kurrent.services)) {
    const under = base.services[name] ?? {};
    compose.services[name] = {
      ...under,
      ...over,
      environment: { ...under.environment, ...over.environment },
      depends_on: { ...(under.depends_on as object), ...(over.depends_on as object) },
    };
  }
  const stores = ['postgres', 'nats', 'redis', 'eventstore'];

  it('keeps its events in PostgreSQL by default, and in KurrentDB over TLS with the profile', () => {
    for (const name of [...serviceNames, 'app']) {
      expect(base.services[name]?.environment?.EVENT_STORE, name).toBe('postgres');
      expect(base.services[name]?.environment?.EVENTSTORE_URL, name).toBeUndefined();
      expect(compose.services[name]?.environment?.EVENT_STORE, name).toBe('esdb');
      expect(compose.services[name]?.environment?.EVENTSTORE_URL, name).toMatch(/@eventstore:2113\?tls=true/);
      expect((compose.services[name]?.depends_on as Record<string, unknown> | undefined)?.eventstore, name).toEqual({
        condition: 'service_healthy',
      });
    }
    expect(base.services.eventstore).toBeUndefined();
    // Kubernetes likewise.
    expect(kindIn(built.ha, 'ConfigMap')[0]?.data?.EVENT_STORE).toBe('postgres');
  });

  it('checks every Shiplog process on its /readyz, and starts the gateway once every service is ready', () => {
    for (const name of [...serviceNames, 'gateway', 'app']) {
      const test = compose.services[name]?.healthcheck?.test.join(' ') ?? '';
      expect(test, name).toContain('/readyz');
    }
    const dependsOn = compose.services.gateway!.depends_on as Record<string, { condition: string }>;
    for (const name of [...serviceNames, 'redis'])
      expect(dependsOn[name], name).toEqual({ condition: 'service_healthy' });
  });

  it('publishes no store on the network: 127.0.0.1 only', () => {
    for (const store of stores)
      for (const port of compose.services[store]?.ports ?? [])
        expect(port, `${store} publishes ${port}`).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    // Every other published port is the gateway's.
    const published = Object.entries(compose.services)
      .filter(([, s]) => (s.ports ?? []).length > 0)
      .map(([name]) => name);
    expect(published.filter((name) => !stores.includes(name)).sort()).toEqual(['app', 'gateway']);
  });

  it('runs the small layout as one container that reads all the full layout does, each layout by its profile', () => {
    const shiplog = [...serviceNames, 'gateway'];
    for (const name of shiplog) expect(base.services[name]?.profiles, name).toEqual(['full']);
    for (const store of ['postgres', 'nats', 'redis']) expect(base.services[store]?.profiles, store).toBeUndefined();
    const app = base.services.app!;
    expect(app.profiles).toEqual(['small']);
    // The image's own command: every service and the gateway in one process.
    expect(app.command).toBeUndefined();
    // Every setting a container of the full layout gets, but where the services answer each other,
    // which in one process are its own.
    const perProcess = new Set(['SERVICE_PORT', 'SERVICE_HOST']);
    const wanted = new Set(
      shiplog.flatMap((name) =>
        Object.keys(base.services[name]?.environment ?? {}).filter(
          (key) =>
            !perProcess.has(key) &&
            !(/^[A-Z]+_URL$/.test(key) && /^http:\/\/[a-z]+:\d+$/.test(base.services[name]!.environment![key]!)),
        ),
      ),
    );
    expect(Object.keys(app.environment ?? {}).sort()).toEqual([...wanted].sort());
    expect(readFileSync(join(root, '.env.example'), 'utf8')).toMatch(/^COMPOSE_PROFILES=small$/m);
  });

  it('puts every store behind a password from .env, and keeps Redis on disk', () => {
    const env = (name: string) => compose.services[name]?.environment ?? {};
    expect(env('postgres').POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(env('nats').NATS_PASSWORD).toMatch(/^\$\{NATS_PASSWORD:\?/);
    expect(readFileSync(join(root, 'deploy/compose/nats.conf'), 'utf8')).toMatch(/password:\s*\$NATS_PASSWORD/);
    expect(env('redis').REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?/);
    expect(compose.services.redis?.command?.join(' ')).toMatch(
      /--requirepass .*--appendonly yes|--appendonly yes.*--requirepass/,
    );
    expect(env('eventstore').KURRENTDB_INSECURE).toBeUndefined();
    expect(env('eventstore').KURRENTDB_CERTIFICATE_FILE).toBeDefined();
    expect(env('gateway').REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD/);
    expect(env('gateway').NATS_URL).toMatch(/^nats:\/\/shiplog:\$\{NATS_PASSWORD/);
    expect(env('identity').EVENTSTORE_URL).toMatch(/tls=true/);
    expect(JSON.stringify(compose)).not.toMatch(/shiplog@postgres|password: shiplog|POSTGRES_PASSWORD: shiplog/);
  });

  it('pins every image', () => {
    for (const [name, service] of Object.entries(compose.services))
      if (service.image)
        expect(pinned(service.image.replace(/\$\{[A-Z_]+:-([^}]+)\}/, '$1')), `${name}: ${service.image}`).toBe(true);
  });
});
