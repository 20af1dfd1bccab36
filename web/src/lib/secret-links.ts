/**
 * A secret link (a calendar feed, a deploy webhook) is a credential: the server keeps only its hash,
 * so it is shown once, when made. Afterwards the app knows only whether one is active, and since when.
 */
export interface SecretLinkState {
  active: boolean;
  createdAt: string | null;
}

/** The answer to making one: the only time its URL is given. */
export interface MadeSecretLink {
  url: string;
  createdAt: string;
}
