import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A subscription as a browser hands it to the app (`PushSubscription.toJSON()`). */
export interface StandInSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A push the service took, decrypted with the subscription's private key as the browser would. */
export interface ReceivedPush {
  receivedAt: number;
  /** The subscription's id (the endpoint's last segment). */
  id: string;
  /** The plaintext the app sent (RFC 8291), or null when it did not decrypt. */
  payload: string | null;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  /** The VAPID claims (RFC 8292) when the JWT's signature held for the key sent beside it; null otherwise. */
  vapid: { aud: string; exp: number; sub: string; publicKey: string } | null;
}

/**
 * A Web Push service (RFC 8030), as Chrome's, Firefox's and Apple's answer the app server: it takes
 * `POST /push/<id>` with an `aes128gcm` body (RFC 8188) and a VAPID `Authorization` (RFC 8292),
 * answers 201, and decrypts each message with the subscription's keys (RFC 8291), so a test proves
 * the encryption instead of assuming it. `subscribe()` makes a subscription as a browser would (its own
 * P-256 key pair and 16-byte auth secret); `gone(id)` makes the service answer 410 Gone for it, as
 * when the user revoked the permission or uninstalled the browser. Requests without a valid VAPID
 * signature are refused with 403, as the real services do. `hold()` makes it a slow push service:
 * requests wait unanswered until `release()`, and `inFlight` / `mostInFlight` count them.
 */
export interface PushStandIn {
  url: string;
  /** `host:port`, for PUSH_ALLOWED_HOSTS. */
  host: string;
  received: ReceivedPush[];
  subscribe(): StandInSubscription;
  gone(endpoint: string): void;
  hold(): void;
  release(): void;
  /** Requests taken and not answered yet; the most there were at once. */
  inFlight: number;
  mostInFlight: number;
  stop(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188 §2: one record, its padding delimiter 0x02 and any zeros after it. */
function decrypt(body: Buffer, device: { privateKey: Buffer; publicKey: Buffer; auth: Buffer }): string | null {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(device.privateKey);
  const shared = ecdh.computeSecret(serverPublicKey);
  const prkKey = hmac(device.auth, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.publicKey, serverPublicKey, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  try {
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    if (padded[end] !== 2) return null;
    return padded.subarray(0, end).toString('utf8');
  } catch {
    return null;
  }
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed (ES256) with the key's private half. */
function checkVapid(header: string | undefined): ReceivedPush['vapid'] {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return null;
  const [token, publicKey] = [match[1]!, match[2]!];
  const [head, claims, signature] = token.split('.');
  if (!head || !claims || !signature) return null;
  const point = Buffer.from(publicKey, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return null;
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return null;
  const { aud, exp, sub } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  return { aud, exp, sub, publicKey };
}

export async function startPushStandIn(): Promise<PushStandIn> {
  const devices = new Map<string, { privateKey: Buffer; publicKey: Buffer; auth: Buffer; gone: boolean }>();
  let held: (() => void)[] | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    stand.inFlight += 1;
    stand.mostInFlight = Math.max(stand.mostInFlight, stand.inFlight);
    res.on('close', () => {
      stand.inFlight -= 1;
    });
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const answer = () => {
      const id = /^\/push\/([^/]+)$/.exec(req.url ?? '')?.[1];
      const device = id ? devices.get(id) : undefined;
      if (req.method !== 'POST' || !id || !device) return void res.writeHead(404).end();
      if (device.gone) return void res.writeHead(410).end();
      const vapid = checkVapid(req.headers.authorization);
      // The audience is the push service's origin, and the token lives at most a day (RFC 8292 §2).
      if (!vapid || vapid.aud !== stand.url || vapid.exp * 1000 > Date.now() + 86_400_000 + 60_000)
        return void res.writeHead(403).end();
      const body = Buffer.concat(chunks);
      stand.received.push({
        receivedAt: Date.now(),
        id,
        payload: req.headers['content-encoding'] === 'aes128gcm' ? decrypt(body, device) : null,
        ttl: req.headers.ttl as string | undefined,
        urgency: req.headers.urgency as string | undefined,
        topic: req.headers.topic as string | undefined,
        vapid,
      });
      res.writeHead(201, { location: `${stand.url}/message/${randomUUID()}` }).end();
    };
    req.on('end', () => (held ? held.push(answer) : answer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stand: PushStandIn = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received: [],
    inFlight: 0,
    mostInFlight: 0,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomUUID();
      devices.set(id, { privateKey: ecdh.getPrivateKey(), publicKey, auth, gone: false });
      return {
        endpoint: `${stand.url}/push/${id}`,
        keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    gone(endpoint) {
      const device = devices.get(endpoint.split('/').pop() ?? '');
      if (device) device.gone = true;
    },
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return stand;
}
