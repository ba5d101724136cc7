// Where to go after sign-in: the `next` parameter is only followed when it is a path on this site, so a
// crafted link cannot send a freshly signed-in user to another host (open redirect).

/** A target for after sign-in: only paths on this site (never `//host`, `/\host` or a scheme), never /login. */
export function safeNext(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value.startsWith('/login')) return '/';
  return value;
}
