/**
 * A sensitive change (deleting the account, changing the email, making an API token or a deploy
 * webhook) answers 403 `REAUTH_REQUIRED` when the password was last typed more than ten minutes ago.
 * `apiRequest` then asks here; the host mounted at the root (features/account/reauth-host.tsx) asks the
 * user for their password and answers whether it was confirmed, and the request is made once more.
 */
type Ask = () => Promise<boolean>;

let ask: Ask | null = null;

/** The dialog registers itself; the function it gets back unregisters it. */
export function answerReauth(handler: Ask): () => void {
  ask = handler;
  return () => {
    if (ask === handler) ask = null;
  };
}

/** Asks the user for their password; false when they decline or nothing can ask. */
export function confirmPassword(): Promise<boolean> {
  return ask ? ask() : Promise.resolve(false);
}
