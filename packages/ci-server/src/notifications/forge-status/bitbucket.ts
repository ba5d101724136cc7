// Bitbucket Cloud build statuses: `POST /2.0/repositories/{workspace}/{repo_slug}/commit/{sha}/statuses/build`
// with `{key, state, url, name, description}`, state INPROGRESS, SUCCESSFUL, FAILED or STOPPED. `key` names
// the status (a later post with the same key replaces it): the status name, cut to 40 characters with a
// digest when longer. Auth: an app password with its username (Basic), or an access token (Bearer).
// Answered 201 for a new key, 200 for an update.
import { createHash } from 'node:crypto';
import { type StatusInput, type StatusRequest, segments, USER_AGENT } from './request.js';

const KEY_MAX = 40;

export function bitbucketKey(context: string): string {
  if (context.length <= KEY_MAX) return context;
  const digest = createHash('sha256').update(context).digest('hex').slice(0, 8);
  return `${context.slice(0, KEY_MAX - 9)}-${digest}`;
}

export function bitbucketStatusRequest(input: StatusInput): StatusRequest {
  const authorization = input.username
    ? `Basic ${Buffer.from(`${input.username}:${input.token}`).toString('base64')}`
    : `Bearer ${input.token}`;
  return {
    url: `${input.apiUrl}/repositories/${segments(input.repository)}/commit/${input.sha}/statuses/build`,
    headers: {
      authorization,
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    },
    body: JSON.stringify({
      key: bitbucketKey(input.context),
      state: input.state,
      url: input.targetUrl,
      name: input.context,
      description: input.description,
    }),
  };
}
